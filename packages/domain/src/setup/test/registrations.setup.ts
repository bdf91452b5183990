// An integration-test setup file. Some modules register a hook in a lower one when they load: the
// proof of liabilities' check in every ledger reconciliation, spot's open-orders check in the
// catalogue and its turnover in the platform volume, funding's policy checks, loans' repayment
// history in the credit score. The API and the worker load them all. Test files share a process, so
// without this a file would get them or not by which files ran before it; with it every file runs
// against the domain as the servers load it.
import "../../funding/index.ts";
import "../../loans/index.ts";
import "../../proofs/index.ts";
import "../../spot/index.ts";
