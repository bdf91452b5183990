import { authenticateOperator } from "@northstar/domain/admin";
import { AppError } from "@northstar/domain/errors";
import { authenticate, updateAvatar } from "@northstar/domain/identity";
import { readUpload } from "@northstar/domain/uploads";
import { toLanguage } from "@northstar/shared/languages";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "./deps.ts";
import { toRefusal } from "./errors.ts";
import { readToken } from "./request.ts";

/**
 * Uploads are private: POST /uploads/avatar stores an avatar for the session's user; GET
 * /uploads/:id serves a file only to its owner (token in header or `token` query, since an <img>
 * cannot send headers) or to an operator.
 */
export function registerUploadRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post("/uploads/avatar", async (request) => {
    const lang = toLanguage(request.headers.lang);
    try {
      const auth = await authenticate(deps.db, readToken(request));
      const file = await request.file();
      if (!file) {
        throw new AppError("UPLOAD_MISSING", {}, "avatar");
      }
      const bytes = await file.toBuffer().catch(() => {
        throw new AppError("UPLOAD_TOO_LARGE", { mb: 8 }, "avatar");
      });
      const id = await updateAvatar(deps.db, deps.config.uploadDir, auth.user, bytes);
      return {
        code: 0,
        message: "",
        data: { id, url: `/uploads/${id}` },
        time: Math.floor(Date.now() / 1000),
      };
    } catch (error) {
      const refusal = toRefusal(error, lang);
      return {
        code: refusal.code,
        message: refusal.message,
        data: { error: refusal.errorCode },
        time: Math.floor(Date.now() / 1000),
      };
    }
  });

  app.get<{ Params: { id: string }; Querystring: { token?: string } }>(
    "/uploads/:id",
    async (request, reply) => {
      const operatorToken = request.headers["x-operator-token"];
      try {
        const operator =
          typeof operatorToken === "string" ? await authenticateOperator(deps.db, operatorToken) : null;
        const viewer = operator
          ? { operatorId: operator.id }
          : {
              userId: (await authenticate(deps.db, readToken(request, { token: request.query.token }))).user
                .id,
            };
        const file = await readUpload(deps.db, deps.config.uploadDir, { id: request.params.id, viewer });
        return reply
          .header("cache-control", "private, max-age=3600")
          .header("x-content-type-options", "nosniff")
          .type(file.mime)
          .send(file.bytes);
      } catch {
        return reply.status(404).send({ code: 404, message: "not found" });
      }
    },
  );
}
