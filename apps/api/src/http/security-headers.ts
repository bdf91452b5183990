import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/**
 * Security headers, from helmet's middleware built once: the Fastify plugin builds it anew for every
 * request (parsing the policy each time), a measurable share of a small request's CPU.
 * `upgrade-insecure-requests` goes only to clients that came over HTTPS (or through a trusted proxy
 * that says so): sent over plain HTTP, as on a LAN address, it makes the browser ask for every asset
 * over an HTTPS port nobody listens on, and the page never loads.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const setHeaders = helmet({
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
  });
  // request.protocol reads X-Forwarded-Proto only when TRUST_PROXY is on.
  app.addHook("onRequest", (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => {
      if (error) {
        done(error as Error);
        return;
      }
      const csp = reply.raw.getHeader("content-security-policy");
      if (request.protocol === "https" && typeof csp === "string") {
        reply.raw.setHeader("content-security-policy", `${csp};upgrade-insecure-requests`);
      }
      done();
    });
  });
}
