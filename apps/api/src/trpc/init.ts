import { type AuthenticatedOperator, authenticateOperator } from "@northstar/domain/admin";
import { recordAudit } from "@northstar/domain/audit";
import { isDatabaseUnavailable } from "@northstar/domain/db";
import { AppError } from "@northstar/domain/errors";
import { assertIdempotencyKey } from "@northstar/domain/idempotency";
import { authenticate } from "@northstar/domain/identity";
import { ResponseCode } from "@northstar/shared/errors";
import { type Language, toLanguage } from "@northstar/shared/languages";
import { can, type Permission } from "@northstar/shared/operators";
import { initTRPC, TRPCError } from "@trpc/server";
import type { CreateFastifyContextOptions } from "@trpc/server/adapters/fastify";
import { ZodError } from "zod";
import { takeAddressBudget } from "../http/address-limit.ts";
import type { AppDeps } from "../http/deps.ts";
import { nulByteRefusal, toRefusal } from "../http/errors.ts";
import { clientIp, readToken } from "../http/request.ts";
import { clientFault } from "./client-faults.ts";

export interface TrpcContext {
  deps: AppDeps;
  lang: Language;
  token: string | undefined;
  operatorToken: string | undefined;
  ip: string;
  userAgent: string;
  /** The Idempotency-Key header the web sends with every money action (see ./idempotency.ts). */
  idempotencyKey?: string;
  /** Set only by the operator CLI, which runs on the server with the database's own credentials. */
  cliOperator?: AuthenticatedOperator;
}

export function createContextFactory(deps: AppDeps) {
  return ({ req }: CreateFastifyContextOptions): TrpcContext => ({
    deps,
    lang: toLanguage(req.headers.lang),
    token: readToken(req),
    operatorToken:
      typeof req.headers["x-operator-token"] === "string" ? req.headers["x-operator-token"] : undefined,
    ip: clientIp(req),
    userAgent: String(req.headers["user-agent"] ?? ""),
    idempotencyKey:
      typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : undefined,
  });
}

/**
 * A procedure's metadata: the permission an operator procedure requires (see operatorProcedure), and
 * whether a user procedure is a money action (see moneyProcedure).
 */
export interface ProcedureMeta {
  permission?: Permission;
  money?: boolean;
}

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    /**
     * Every error reaches the client with the envelope's code (1, 1000, 2000, 500), the domain error
     * code and a message in the caller's language; server faults hide their details.
     */
    errorFormatter({ shape, error, ctx }) {
      const cause = error.cause instanceof ZodError || error.cause instanceof AppError ? error.cause : null;
      const refusal = toRefusal(cause ?? clientFault(error.code), ctx?.lang ?? "en");
      return {
        ...shape,
        message: refusal.message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          responseCode: refusal.code,
          errorCode: refusal.errorCode,
          field: refusal.field ?? null,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Domain refusals as tRPC errors whose HTTP status follows the envelope code, and a database that
 * cannot be reached as 503 with a translated "try again" (the call's transaction did not commit;
 * money actions carry an Idempotency-Key, so the retry applies once). Anything else is left as it is.
 */
export function asRefusal(cause: unknown): TRPCError | undefined {
  if (!(cause instanceof AppError) && isDatabaseUnavailable(cause)) {
    return new TRPCError({
      code: "SERVICE_UNAVAILABLE",
      message: "SERVICE_UNAVAILABLE",
      cause: new AppError("SERVICE_UNAVAILABLE"),
    });
  }
  if (cause instanceof AppError) {
    const status = cause.responseCode;
    return new TRPCError({
      code:
        status === ResponseCode.NotLoggedIn || status === ResponseCode.SessionEnded
          ? "UNAUTHORIZED"
          : "BAD_REQUEST",
      message: cause.code,
      cause,
    });
  }
  return undefined;
}

/** What a procedure's entry check adds to its context. */
export type Entry<Added> = (ctx: TrpcContext) => Promise<Added>;

/**
 * Runs a procedure's entry: text with a NUL character is refused before any input is read (see
 * nulByteRefusal), then the procedure's own check (signed in, an Idempotency-Key for money), whose
 * refusal is translated by `asRefusal`. Returns what the check adds to the context.
 */
export async function enter<Added>(ctx: TrpcContext, rawInput: unknown, check: Entry<Added>): Promise<Added> {
  try {
    const refusal = nulByteRefusal(rawInput);
    if (refusal) {
      throw refusal;
    }
    return await check(ctx);
  } catch (cause) {
    throw asRefusal(cause) ?? cause;
  }
}

/**
 * Every procedure's one entry middleware: `enter`, then the procedure, whose refusals are translated
 * by `asRefusal` too. One middleware rather than one per check: each level of tRPC's chain costs a
 * closure and a copy of the context on every call, a measurable share of an order's CPU.
 */
function entry<Added extends object>(check: Entry<Added>) {
  return t.middleware(async ({ ctx, next, getRawInput }) => {
    const added = await enter(ctx, await getRawInput().catch(() => undefined), check);
    const result = await next({ ctx: added });
    if (!result.ok) {
      const refusal = asRefusal(result.error.cause);
      if (refusal) {
        throw refusal;
      }
    }
    return result;
  });
}

/** The entry of a signed-in user's procedure: the session, or LOGIN_REQUIRED / SESSION_ENDED. */
export const signedIn = async (ctx: TrpcContext) => ({ auth: await authenticate(ctx.deps.db, ctx.token) });

/**
 * The entry of a money action: signed in, and an Idempotency-Key (see moneyProcedure), refused
 * before the input is read.
 */
export const moneyEntry = async (ctx: TrpcContext) => {
  const { auth } = await signedIn(ctx);
  const key = ctx.idempotencyKey;
  if (key === undefined || key === "") {
    throw new AppError("IDEMPOTENCY_KEY_REQUIRED", {}, "idempotency_key");
  }
  assertIdempotencyKey(key);
  return { auth, idempotencyKey: key };
};

export type SignedInContext = TrpcContext & Awaited<ReturnType<typeof signedIn>>;
export type MoneyContext = TrpcContext & Awaited<ReturnType<typeof moneyEntry>>;

export const publicProcedure = t.procedure.use(entry(async () => ({})));

/**
 * A public procedure strangers could repeat to make the server work (operator sign-in, wallet sign-in):
 * per-address budget first (http/address-limit.ts), before any hashing or attempt counting.
 */
export const addressLimitedProcedure = (call: string) =>
  publicProcedure.use(async ({ ctx, next }) => {
    await takeAddressBudget(ctx.deps, `trpc/${call}`, ctx.ip);
    return next();
  });

export const authedProcedure = t.procedure.use(entry(signedIn));

/**
 * Money actions: a mutation that opens, spends, moves or credits a balance. Each is refused without
 * an Idempotency-Key (IDEMPOTENCY_KEY_REQUIRED) or with a malformed one, before its input is read, so
 * a resent request can never apply twice; the procedure runs through `onceByKey` (or keeps the key on
 * its own row, as spot orders do). `money-mutations.int.test.ts` walks the router: every user
 * mutation is declared here or listed there as not money. A frozen account never gets this far: its
 * sessions ended when it was frozen, and `authenticate` refuses any session of a frozen user (1000).
 */
export const moneyProcedure = t.procedure.meta({ money: true }).use(entry(moneyEntry));

/** Keys whose values never reach the audit log. */
const SECRET_KEY = /password|secret|code|token|uri/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4) {
    return "…";
  }
  if (Array.isArray(value)) {
    return value.slice(0, 50).map((v) => redact(v, depth + 1));
  }
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : redact(v, depth + 1)]),
    );
  }
  return typeof value === "string" && value.length > 500 ? `${value.slice(0, 500)}…` : value;
}

export const operatorActor = (op: { id: number }) => (op.id === 0 ? "cli" : `operator:${op.id}`);

/**
 * Operator procedures: a live operator session whose role holds `permission` in the one permission
 * table (packages/shared/src/operators.ts). The permission is also the procedure's metadata, so a
 * test walks every admin procedure and finds none without one. An operator whose role requires
 * two-factor sign-in and who has not enrolled may use only "account.enrol" procedures. A refusal is
 * audited; so is every operator mutation that went through (who, which procedure, the input and the
 * result, secrets redacted), next to the domain's own audit entries with the state before and after.
 */
export const operatorProcedure = (permission: Permission) =>
  publicProcedure.meta({ permission }).use(async ({ ctx, next, path, type, getRawInput }) => {
    const operator =
      ctx.cliOperator ??
      (ctx.operatorToken ? await authenticateOperator(ctx.deps.db, ctx.operatorToken) : null);
    if (!operator) {
      throw new AppError("LOGIN_REQUIRED");
    }
    const actor = operatorActor(operator);
    if (!can(operator.role, permission)) {
      await recordAudit(ctx.deps.db, {
        actor,
        action: "operator.forbidden",
        subject: path,
        details: { role: operator.role, permission },
      });
      throw new AppError("FORBIDDEN");
    }
    if (operator.enrolmentRequired && permission !== "account.enrol") {
      throw new AppError("OPERATOR_ENROLMENT_REQUIRED");
    }
    const result = await next({ ctx: { ...ctx, operator } });
    if (type === "mutation" && result.ok) {
      await recordAudit(ctx.deps.db, {
        actor,
        action: `api:${path}`,
        subject: path,
        details: {
          permission,
          input: redact(await getRawInput().catch(() => null)),
          after: redact(result.data),
        },
      });
    }
    return result;
  });

export { TRPCError };
