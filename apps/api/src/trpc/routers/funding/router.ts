import {
  chainClient,
  claimChainDeposit,
  isWatchedDeposit,
  withChainDepositOptions,
} from "@northstar/domain/chain";
import { getSiteSettings } from "@northstar/domain/content";
import {
  addBankCard,
  addWithdrawalAddress,
  applyWithdrawal,
  cancelWithdrawal,
  convertAtQuote,
  createConversionQuote,
  currencyDecimals,
  deleteBankCard,
  deleteWithdrawalAddress,
  findDeposit,
  getAssets,
  getWithdrawalTerms,
  listBankCards,
  listCurrencies,
  listDepositOptions,
  listMoneyRecords,
  listUserDeposits,
  listUserWithdrawals,
  listWithdrawalAddresses,
  quoteConversion,
  submitDeposit,
  transferBetweenWallets,
  withdrawalFee,
} from "@northstar/domain/funding";
import { confirmGoogleBinding, isGoogleBound, startGoogleBinding } from "@northstar/domain/identity";
import {
  ZAddBankCardRequestSchema,
  ZAddWithdrawalAddressRequestSchema,
  ZApplyWithdrawalRequestSchema,
  ZConvertQuoteRequestSchema,
  ZConvertRequestSchema,
  ZGoogleCodeSchema,
  ZPageRequestSchema,
  ZSubmitDepositRequestSchema,
  ZTransferRequestSchema,
  zAmount,
  zCurrency,
  zWalletType,
} from "@northstar/shared/contracts/funding";
import { z } from "zod";
import { onceByKey } from "../../idempotency.ts";
import { authedProcedure, moneyProcedure, publicProcedure, router } from "../../init.ts";

const zId = z.object({ id: z.coerce.number().int().positive() });

/** The money screens of the signed-in user; each procedure calls one domain service. */
export const assetRouter = router({
  get: authedProcedure.query(({ ctx }) => getAssets(ctx.deps.db, ctx.deps.prices, ctx.auth.user)),
  currencies: publicProcedure.query(({ ctx }) => listCurrencies(ctx.deps.db)),
  records: authedProcedure
    .input(
      ZPageRequestSchema.extend({
        wallet: zWalletType.optional(),
        currency: z.string().max(10).optional(),
        kind: z.string().max(40).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      listMoneyRecords(ctx.deps.db, ctx.auth.user, { ...input, pageSize: input.page_size }),
    ),
});

export const depositRouter = router({
  /** The ways in; on the watched chain, the user's own address and the confirmations that credit it. */
  options: authedProcedure.query(async ({ ctx }) =>
    withChainDepositOptions(
      ctx.deps.db,
      ctx.deps.chain ?? null,
      ctx.auth.user,
      await listDepositOptions(ctx.deps.db),
    ),
  ),
  /** How many ways in are configured (each currency and chain, and the bank when open): the home page's figure. */
  methods: publicProcedure.query(async ({ ctx }) => {
    const { channels, addresses } = await listDepositOptions(ctx.deps.db);
    return { count: (channels.crypto ? addresses.length : 0) + (channels.bank ? 1 : 0) };
  }),
  /** A reported transfer: on the watched chain the chain checks it; elsewhere an operator does. */
  create: authedProcedure.input(ZSubmitDepositRequestSchema).mutation(async ({ ctx, input }) => {
    const chain = ctx.deps.chain ?? null;
    if (chain && input.channel === "crypto" && isWatchedDeposit(chain, input)) {
      const { depositId } = await claimChainDeposit(
        ctx.deps.db,
        chainClient(chain),
        chain,
        ctx.auth.user,
        input,
      );
      return findDeposit(ctx.deps.db, depositId);
    }
    return submitDeposit(ctx.deps.db, ctx.auth.user, input);
  }),
  getMany: authedProcedure
    .input(ZPageRequestSchema)
    .query(({ ctx, input }) => listUserDeposits(ctx.deps.db, ctx.auth.user.id, input.page, input.page_size)),
});

export const withdrawalRouter = router({
  terms: authedProcedure.query(({ ctx }) => getWithdrawalTerms(ctx.deps.db, ctx.auth.user)),
  fee: authedProcedure
    .input(z.object({ amount: zAmount, currency: zCurrency.default("USDT") }))
    .query(async ({ ctx, input }) => {
      const { feeRate } = await getWithdrawalTerms(ctx.deps.db, ctx.auth.user);
      return withdrawalFee(input.amount, feeRate, await currencyDecimals(ctx.deps.db, input.currency));
    }),
  create: moneyProcedure
    .input(ZApplyWithdrawalRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "withdrawal.create", input, (once) =>
        applyWithdrawal(ctx.deps.db, ctx.deps.prices, ctx.auth.user, input, new Date(), once),
      ),
    ),
  getMany: authedProcedure
    .input(ZPageRequestSchema)
    .query(({ ctx, input }) =>
      listUserWithdrawals(ctx.deps.db, ctx.auth.user.id, input.page, input.page_size),
    ),
  cancel: authedProcedure.input(zId).mutation(async ({ ctx, input }) => {
    await cancelWithdrawal(ctx.deps.db, ctx.auth.user, input.id);
    return { ok: true };
  }),
});

export const withdrawalAddressRouter = router({
  getMany: authedProcedure.query(({ ctx }) => listWithdrawalAddresses(ctx.deps.db, ctx.auth.user.id)),
  create: authedProcedure
    .input(ZAddWithdrawalAddressRequestSchema)
    .mutation(({ ctx, input }) => addWithdrawalAddress(ctx.deps.db, ctx.auth.user, input)),
  delete: authedProcedure.input(zId).mutation(async ({ ctx, input }) => {
    await deleteWithdrawalAddress(ctx.deps.db, ctx.auth.user.id, input.id);
    return { ok: true };
  }),
});

export const bankCardRouter = router({
  getMany: authedProcedure.query(({ ctx }) => listBankCards(ctx.deps.db, ctx.auth.user.id)),
  create: authedProcedure
    .input(ZAddBankCardRequestSchema)
    .mutation(({ ctx, input }) => addBankCard(ctx.deps.db, ctx.auth.user, input)),
  delete: authedProcedure.input(zId).mutation(async ({ ctx, input }) => {
    await deleteBankCard(ctx.deps.db, ctx.auth.user.id, input.id);
    return { ok: true };
  }),
});

export const transferRouter = router({
  create: moneyProcedure
    .input(ZTransferRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "transfer.create", input, (once) =>
        transferBetweenWallets(ctx.deps.db, ctx.auth.user, input, once),
      ),
    ),
});

export const conversionRouter = router({
  quote: authedProcedure
    .input(ZConvertQuoteRequestSchema)
    .query(({ ctx, input }) => quoteConversion(ctx.deps.db, ctx.deps.prices, input)),
  /** A firm quote: the exact amounts `create` will convert, held for `funding.convert.quoteSeconds`. */
  createQuote: authedProcedure
    .input(ZConvertQuoteRequestSchema)
    .mutation(({ ctx, input }) =>
      createConversionQuote({ db: ctx.deps.db, prices: ctx.deps.prices }, ctx.auth.user, input),
    ),
  create: moneyProcedure
    .input(ZConvertRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "conversion.create", input, (once) =>
        convertAtQuote({ db: ctx.deps.db, prices: ctx.deps.prices }, ctx.auth.user, input, once),
      ),
    ),
});

export const googleAuthRouter = router({
  status: authedProcedure.query(async ({ ctx }) => ({
    bound: await isGoogleBound(ctx.deps.db, ctx.auth.user.id),
  })),
  start: authedProcedure.mutation(async ({ ctx }) => {
    const site = await getSiteSettings(ctx.deps.db);
    return startGoogleBinding(ctx.deps.db, ctx.auth.user, site.name);
  }),
  confirm: authedProcedure.input(ZGoogleCodeSchema).mutation(async ({ ctx, input }) => {
    await confirmGoogleBinding(ctx.deps.db, ctx.auth.user, input.code);
    return { ok: true };
  }),
});
