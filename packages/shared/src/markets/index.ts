export * from "./catalogue.ts";
export * from "./hours.ts";
export * from "./periods.ts";
export * from "./socket.ts";
export * from "./socket-client.ts";
