import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import "./header-menu.css";

export interface HeaderMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  /** a line above the item */
  dividerBefore?: boolean;
  testId?: string;
}

/**
 * A button that opens a short list of actions (the header's language and account menus). Plain
 * elements rather than antd's Dropdown and Menu, which would add about 20 KB compressed to every
 * first load. Keyboard: Enter or Space opens, arrows move, Escape closes and returns to the button;
 * a click elsewhere closes it.
 */
export function HeaderMenu({
  items,
  selectedKey,
  onSelect,
  renderButton,
  label,
}: {
  items: HeaderMenuItem[];
  /** the item shown as chosen (the language in use) */
  selectedKey?: string;
  onSelect: (key: string) => void;
  renderButton: (props: {
    open: boolean;
    toggle: () => void;
    "aria-haspopup": "menu";
    "aria-expanded": boolean;
    "aria-controls": string;
    onKeyDown: (e: KeyboardEvent) => void;
  }) => ReactNode;
  label: string;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);

  const focusItem = (index: number) => {
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>("[role^=menuitem]");
    if (buttons && buttons.length > 0) {
      buttons[(index + buttons.length) % buttons.length]?.focus();
    }
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) {
      root.current?.querySelector<HTMLElement>("[aria-haspopup]")?.focus();
    }
  };

  useEffect(() => {
    if (!open) {
      return;
    }
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const onListKey = (e: KeyboardEvent) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>("[role^=menuitem]") ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "ArrowDown") {
      e.preventDefault();
      focusItem(at + 1);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      focusItem(at - 1);
    } else if (e.key === "Escape" || e.key === "Tab") {
      close(e.key === "Escape");
    }
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" && !open) {
      e.preventDefault();
      setOpen(true);
      requestAnimationFrame(() =>
        focusItem(
          Math.max(
            0,
            items.findIndex((i) => i.key === selectedKey),
          ),
        ),
      );
    } else if (e.key === "Escape" && open) {
      close(true);
    }
  };

  return (
    <div className="ns-header-menu" ref={root}>
      {renderButton({
        open,
        toggle: () => setOpen((o) => !o),
        "aria-haspopup": "menu",
        "aria-expanded": open,
        "aria-controls": id,
        onKeyDown: onButtonKey,
      })}
      {open ? (
        <div
          className="ns-header-menu-list"
          role="menu"
          id={id}
          aria-label={label}
          ref={list}
          onKeyDown={onListKey}
        >
          {items.map((item) => {
            const className = item.danger
              ? "ns-header-menu-item ns-header-menu-danger"
              : "ns-header-menu-item";
            const choose = () => {
              close(false);
              onSelect(item.key);
            };
            const content = (
              <>
                {item.icon ? (
                  <span className="ns-header-menu-icon" aria-hidden>
                    {item.icon}
                  </span>
                ) : null}
                {item.label}
              </>
            );
            return (
              <div
                key={item.key}
                role="none"
                className={item.dividerBefore ? "ns-header-menu-divided" : undefined}
              >
                {selectedKey === undefined ? (
                  <button
                    type="button"
                    role="menuitem"
                    className={className}
                    data-testid={item.testId}
                    onClick={choose}
                  >
                    {content}
                  </button>
                ) : (
                  <button
                    type="button"
                    role="menuitemradio"
                    aria-checked={item.key === selectedKey}
                    className={className}
                    data-testid={item.testId}
                    onClick={choose}
                  >
                    {content}
                  </button>
                )}
              </div>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}
