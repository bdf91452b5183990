import { domainEnv } from "@northstar/domain/env";

/** The worker needs only the shared server configuration. */
export const env = () => domainEnv();
