import { theme } from "antd";
import type { CSSProperties, HTMLAttributes, ReactNode } from "react";
import "./typography.css";

/**
 * Text, paragraphs and headings in the theme's colours and sizes, for the pages of the first load.
 * antd's Typography brings its copy and edit features (an input, a text area, tooltips: about
 * 11 KB compressed) to every page that shows a line of text; these draw the same with plain elements.
 */
type Tone = "secondary" | "success" | "danger" | "warning";

interface TextProps extends Omit<HTMLAttributes<HTMLElement>, "style" | "className"> {
  type?: Tone;
  strong?: boolean;
  /** one line cut with "…", or up to `rows` lines */
  ellipsis?: boolean | { rows: number };
  style?: CSSProperties;
  className?: string;
  children?: ReactNode;
  "data-testid"?: string;
}

/** The tone's colour; plain text takes the theme's text colour, as antd's does (not a link's blue). */
function useToneColor(type: Tone | undefined): string {
  const { token } = theme.useToken();
  return type
    ? {
        secondary: token.colorTextSecondary,
        success: token.colorSuccess,
        danger: token.colorError,
        warning: token.colorWarning,
      }[type]
    : token.colorText;
}

function ellipsisProps(ellipsis: TextProps["ellipsis"]): { className?: string; style?: CSSProperties } {
  if (!ellipsis) {
    return {};
  }
  if (ellipsis === true) {
    return { className: "ns-ellipsis" };
  }
  return { className: "ns-clamp", style: { WebkitLineClamp: ellipsis.rows } };
}

function classes(...names: (string | undefined)[]): string | undefined {
  const list = names.filter(Boolean);
  return list.length > 0 ? list.join(" ") : undefined;
}

export function Text({ type, strong, ellipsis, style, className, children, ...rest }: TextProps) {
  const color = useToneColor(type);
  const cut = ellipsisProps(ellipsis);
  return (
    <span
      {...rest}
      className={classes("ns-text", className, cut.className)}
      style={{ color, fontWeight: strong ? 600 : undefined, ...cut.style, ...style }}
    >
      {children}
    </span>
  );
}

export function Paragraph({ type, strong, ellipsis, style, className, children, ...rest }: TextProps) {
  const color = useToneColor(type);
  const cut = ellipsisProps(ellipsis);
  return (
    <div
      {...rest}
      className={classes("ns-text ns-paragraph", className, cut.className)}
      style={{ color, fontWeight: strong ? 600 : undefined, ...cut.style, ...style }}
    >
      {children}
    </div>
  );
}

export function Title({
  level = 1,
  style,
  className,
  children,
}: {
  level?: 1 | 2 | 3 | 4 | 5;
  style?: CSSProperties;
  className?: string;
  children?: ReactNode;
}) {
  const { token } = theme.useToken();
  const Heading = `h${level}` as const;
  const sizes = [
    0,
    token.fontSizeHeading1,
    token.fontSizeHeading2,
    token.fontSizeHeading3,
    token.fontSizeHeading4,
    token.fontSizeHeading5,
  ];
  return (
    <Heading
      className={className}
      style={{
        margin: "0 0 0.5em",
        color: token.colorTextHeading,
        fontWeight: token.fontWeightStrong,
        fontSize: sizes[level],
        lineHeight: 1.25,
        ...style,
      }}
    >
      {children}
    </Heading>
  );
}

/** A link that acts (a button in the look of a link). */
export function TextLink({
  onClick,
  children,
  ...rest
}: {
  onClick: () => void;
  children: ReactNode;
  "data-testid"?: string;
}) {
  return (
    <button type="button" className="ns-text-link" onClick={onClick} {...rest}>
      {children}
    </button>
  );
}
