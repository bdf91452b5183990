import http from "node:http";

// The HTTP floor of the order path (order-floor.ts): a bare node:http server that reads the JSON
// body of a spot.place request, parses it and answers an order of the size spot.place answers.
// No sign-in, no checks, no database: what any JSON API on this machine pays per request.
const answer = JSON.stringify({
  result: {
    data: {
      id: 123456,
      symbol: "BTCUSDT",
      base: "BTC",
      quote: "USDT",
      side: "buy",
      type: "limit",
      time_in_force: "gtc",
      price: "59871.42",
      quantity: "0.00123",
      quote_amount: null,
      filled_qty: "0",
      filled_quote: "0",
      avg_price: null,
      fee: "0",
      fee_currency: "BTC",
      status: "pending",
      cancel_reason: null,
      created_at: "2026-12-07T12:00:00.000Z",
      updated_at: "2026-12-07T12:00:00.000Z",
    },
  },
});
const length = String(Buffer.byteLength(answer));

const server = http.createServer((request, response) => {
  let body = "";
  request.setEncoding("utf8");
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", () => {
    const order = JSON.parse(body);
    const ok = typeof order.symbol === "string";
    response.writeHead(ok ? 200 : 400, { "content-type": "application/json", "content-length": length });
    response.end(answer);
  });
});
server.listen(Number(process.argv[2]), "127.0.0.1", () => process.stdout.write("ready\n"));
