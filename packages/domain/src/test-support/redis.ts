/** The Redis integration tests use: REDIS_URL, or the local default. */
export const testRedisUrl = (): string => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
