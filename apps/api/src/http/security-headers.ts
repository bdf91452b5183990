import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * Security headers. `upgrade-insecure-requests` goes only to clients that came over HTTPS (or
 * through a trusted proxy that says so): sent over plain HTTP, as on a LAN address, it makes the
 * browser ask for every asset over an HTTPS port nobody listens on, and the page never loads.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
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
  app.addHook("onRequest", async (request, reply) => {
    const csp = reply.raw.getHeader("content-security-policy");
    if (request.protocol === "https" && typeof csp === "string") {
      reply.raw.setHeader("content-security-policy", `${csp};upgrade-insecure-requests`);
    }
  });
}
