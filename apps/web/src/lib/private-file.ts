import type { TSessionInfo } from "@northstar/shared/contracts/identity";
import { useEffect, useState } from "react";

export type PrivateFile = { url?: string; failed?: boolean };

/**
 * A private upload (avatar, proof) shown from an object URL. An <img> cannot send headers, and a
 * session token must never travel in a URL, so the file is fetched with the caller's header and
 * handed to the image as a blob. The object URL is released when the path changes or the component
 * goes away. `path` undefined shows nothing.
 */
export function usePrivateFile(
  path: string | null | undefined,
  headers: Record<string, string>,
): PrivateFile {
  const [state, setState] = useState<PrivateFile>({});
  // Headers as a stable key: a new object each render must not fetch again.
  const headerKey = JSON.stringify(headers);

  useEffect(() => {
    setState({});
    if (!path) {
      return;
    }
    let url: string | undefined;
    const controller = new AbortController();
    fetch(path, { headers: JSON.parse(headerKey) as Record<string, string>, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) {
          throw new Error(`HTTP ${response.status}`);
        }
        const blob = await response.blob();
        if (controller.signal.aborted) {
          return;
        }
        url = URL.createObjectURL(blob);
        setState({ url });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          console.error(`private file ${path} failed`, error);
          setState({ failed: true });
        }
      });
    return () => {
      controller.abort();
      if (url) {
        URL.revokeObjectURL(url);
      }
    };
  }, [path, headerKey]);

  return state;
}

/** The avatar, a private upload, fetched with the session's header. */
export function useAvatarSrc(
  session: Pick<TSessionInfo, "avatar" | "token"> | undefined,
): string | undefined {
  return usePrivateFile(session?.avatar, session ? { authorization: `Bearer ${session.token}` } : {}).url;
}
