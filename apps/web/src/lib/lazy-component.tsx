import { type ComponentType, lazy, type ReactNode, Suspense } from "react";

/**
 * A component whose code loads on first render (a dynamic import), with `fallback` holding its
 * place meanwhile: what a page draws after its first paint stays out of its first load.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
): ComponentType<P> {
  const Loaded = lazy(() => load().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: called once per module at load, as React.lazy is
  return function LazyComponent(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
