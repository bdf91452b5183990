import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/** Helmet's options: its defaults, with the pages' content policy. */
export const SECURITY_POLICY: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", "data:", "blob:"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      connectSrc: ["'self'", "ws:", "wss:"],
      scriptSrc: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
};

/**
 * Security headers: helmet's, worked out once at start. Its policy here is the same for every request
 * (no nonce, nothing read from the request), so it is run once against a response that only records
 * what helmet sets and removes; each request then gets those headers as they are. Running helmet's
 * dozen middlewares per request (the Fastify plugin even rebuilds them per request) was a measurable
 * share of a small request's CPU.
 * `upgrade-insecure-requests` goes only to clients that came over HTTPS (or through a trusted proxy
 * that says so): sent over plain HTTP, as on a LAN address, it makes the browser ask for every asset
 * over an HTTPS port nobody listens on, and the page never loads.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const { set, removed } = await recordHeaders(helmet(SECURITY_POLICY));
  const csp = set.get("content-security-policy");
  const overHttps = new Map(set);
  if (csp !== undefined) {
    overHttps.set("content-security-policy", `${csp};upgrade-insecure-requests`);
  }
  // request.protocol reads X-Forwarded-Proto only when TRUST_PROXY is on.
  app.addHook("onRequest", (request, reply, done) => {
    const response = reply.raw;
    for (const [name, value] of request.protocol === "https" ? overHttps : set) {
      response.setHeader(name, value);
    }
    for (const name of removed) {
      response.removeHeader(name);
    }
    done();
  });
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** What a middleware sets and removes on a response, run once on a recording stand-in. */
function recordHeaders(middleware: Middleware): Promise<{ set: Map<string, string>; removed: string[] }> {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const response = {
    setHeader(name: string, value: unknown) {
      set.set(name.toLowerCase(), String(value));
      return response;
    },
    removeHeader(name: string) {
      set.delete(name.toLowerCase());
      removed.push(name.toLowerCase());
    },
    getHeader: (name: string) => set.get(name.toLowerCase()),
  };
  const request = { headers: {}, method: "GET", url: "/" };
  return new Promise((resolve, reject) => {
    middleware(request as unknown as IncomingMessage, response as unknown as ServerResponse, (error) =>
      error ? reject(error) : resolve({ set, removed }),
    );
  });
}
