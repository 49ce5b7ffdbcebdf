// autocannon `setupRequest` for the api-throughput benchmark: each request checks another
// wrong access code, so the server cannot answer from one cached value. CommonJS because
// autocannon's worker thread loads it with require().

/** Enough distinct codes that the rotation never settles on a few hot ones. */
const CODES = Array.from({ length: 4096 }, () =>
  JSON.stringify({
    unicode: Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('base64url'),
  }),
);
let next = 0;

module.exports = function setupRequest(request) {
  request.body = CODES[next];
  next = (next + 1) % CODES.length;
  return request;
};
