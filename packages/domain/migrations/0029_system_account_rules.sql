-- Every system account keeps the sign rule of its code (ledger/system-accounts.ts). NOT VALID: rows
-- written before the rule are reported by reconciliation rather than failing this migration; every
-- new write is checked. Once `pnpm admin reconcile` lists no rule break, VALIDATE CONSTRAINT may run.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_system_rule" CHECK (system_code is null or case when system_code in ('contracts_house', 'contracts_insurance', 'house', 'launchpad_issuer', 'market_maker', 'options_house') then true when system_code in ('c2c_supply', 'demo_faucet', 'earn_yield', 'loans_pool', 'marketing_funding') or starts_with(system_code, 'deposit_clearing:') then balance <= 0 else balance >= 0 end) NOT VALID;
