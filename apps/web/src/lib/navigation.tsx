import { createContext, type MouseEvent, type ReactNode, useCallback, useContext } from "react";
import { Link, type To, useLocation, useNavigate } from "react-router";

/** Bumping this remounts the current page: used for /market → /market, which reloads it. */
export const ReloadContext = createContext<() => void>(() => {});

const samePlace = (to: string, location: { pathname: string; search: string }) =>
  to === location.pathname + location.search || (to === location.pathname && location.search === "");

/**
 * Navigation with the rules of SPEC section 2: going to the place you are already at is ignored,
 * except /market, which reloads.
 */
export function useAppNavigate() {
  const navigate = useNavigate();
  const location = useLocation();
  const reload = useContext(ReloadContext);
  return useCallback(
    (to: string, options?: { replace?: boolean }) => {
      if (samePlace(to, location)) {
        if (location.pathname === "/market") {
          reload();
        }
        return;
      }
      void navigate(to, options);
    },
    [navigate, location, reload],
  );
}

export function AppLink({
  to,
  children,
  className,
  "aria-current": current,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  "aria-current"?: "page";
}) {
  const go = useAppNavigate();
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) {
      return;
    }
    e.preventDefault();
    go(to);
  };
  return (
    <Link to={to as To} onClick={onClick} className={className} aria-current={current}>
      {children}
    </Link>
  );
}
