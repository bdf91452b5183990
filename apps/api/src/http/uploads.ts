import { authenticateOperator } from "@northstar/domain/admin";
import { AppError } from "@northstar/domain/errors";
import { authenticate, type User, updateAvatar } from "@northstar/domain/identity";
import { isVerificationPhoto } from "@northstar/domain/kyc";
import { getPolicy } from "@northstar/domain/policy";
import { readUpload, storeUpload } from "@northstar/domain/uploads";
import { toLanguage } from "@northstar/shared/languages";
import { can } from "@northstar/shared/operators";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "./deps.ts";
import { toRefusal } from "./errors.ts";
import { readToken } from "./request.ts";

const now = () => Math.floor(Date.now() / 1000);

/**
 * Reads the request's one file whole, or refuses it. The parser is told one byte more than the limit,
 * so a file past the limit always arrives longer than the limit, whatever its chunks; a file the
 * parser cut (`truncated`, read after the stream ended, when it is final) or that ends longer than the
 * limit is refused, and so is a part that ended early. Nothing is stored from a file not read whole.
 */
async function receiveWhole(request: FastifyRequest, maxBytes: number, field: string): Promise<Buffer> {
  const tooLarge = () => new AppError("UPLOAD_TOO_LARGE", { mb: Math.floor(maxBytes / 1024 / 1024) }, field);
  const file = await request.file({ limits: { fileSize: maxBytes + 1 }, throwFileSizeLimit: false });
  if (!file) {
    throw new AppError("UPLOAD_MISSING", {}, field);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of file.file) {
      size += chunk.length;
      // Past the limit the rest is only counted (the parser discards it), never kept.
      if (size <= maxBytes) {
        chunks.push(chunk);
      }
    }
  } catch {
    throw file.file.truncated || size > maxBytes ? tooLarge() : new AppError("MALFORMED_REQUEST");
  }
  if (file.file.truncated || size > maxBytes) {
    throw tooLarge();
  }
  return Buffer.concat(chunks, size);
}

/**
 * Uploads are private. POST /uploads/avatar sets the session user's avatar; POST /uploads/proof
 * stores a proof image (deposit, KYC) and answers its id. GET /uploads/:id serves a file only to
 * its owner or to an operator, who prove it with a header: a session token never goes in a URL,
 * where logs, history and Referer would keep it. Answers use the legacy envelope.
 */
export function registerUploadRoutes(app: FastifyInstance, deps: AppDeps): void {
  const receive =
    (field: string, store: (user: User, bytes: Buffer) => Promise<string>) =>
    async (request: FastifyRequest) => {
      const lang = toLanguage(request.headers.lang);
      try {
        const auth = await authenticate(deps.db, readToken(request));
        // Read at request time, so an operator's change applies at once.
        const maxBytes = await getPolicy(deps.db, "uploads.maxBytes");
        const bytes = await receiveWhole(request, maxBytes, field);
        const id = await store(auth.user, bytes);
        return { code: 0, message: "", data: { id, url: `/uploads/${id}` }, time: now() };
      } catch (error) {
        if (error instanceof AppError && error.code === "STORAGE_FULL") {
          // The user is told to try later; operators must free or grow the uploads' disk.
          request.log.error({ uploadDir: deps.config.uploadDir }, "uploads disk is full: upload refused");
        }
        const refusal = toRefusal(error, lang);
        return {
          code: refusal.code,
          message: refusal.message,
          data: { error: refusal.errorCode, field },
          time: now(),
        };
      }
    };

  app.post(
    "/uploads/avatar",
    receive("avatar", (user, bytes) => updateAvatar(deps.db, deps.config.uploadDir, user, bytes)),
  );
  app.post(
    "/uploads/proof",
    receive(
      "proof",
      async (user, bytes) =>
        (await storeUpload(deps.db, deps.config.uploadDir, { ownerUserId: user.id, purpose: "proof", bytes }))
          .id,
    ),
  );

  app.get<{ Params: { id: string } }>("/uploads/:id", async (request, reply) => {
    const operatorToken = request.headers["x-operator-token"];
    try {
      const signedIn =
        typeof operatorToken === "string" ? await authenticateOperator(deps.db, operatorToken) : null;
      // An operator who still has to enrol two-factor sign-in sees nothing yet.
      const operator = signedIn && !signedIn.enrolmentRequired ? signedIn : null;
      // Identity documents (verification photos) are for those who review them (the permission table).
      if (operator && !can(operator.role, "kyc.review")) {
        if (await isVerificationPhoto(deps.db, request.params.id)) {
          return reply.status(404).send({ code: 404, message: "not found" });
        }
      }
      const viewer = operator
        ? { operatorId: operator.id }
        : { userId: (await authenticate(deps.db, readToken(request))).user.id };
      const file = await readUpload(deps.db, deps.config.uploadDir, { id: request.params.id, viewer });
      return reply
        .header("cache-control", "private, max-age=3600")
        .header("x-content-type-options", "nosniff")
        .type(file.mime)
        .send(file.bytes);
    } catch {
      return reply.status(404).send({ code: 404, message: "not found" });
    }
  });
}
