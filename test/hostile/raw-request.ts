/**
 * One request sent as written: node:http keeps the path byte for byte, where fetch would
 * normalise the spellings (`%61pi`, `..%2f`, `//`) these tests exist to try.
 */
import { request as httpRequest } from 'node:http';

export interface Answer {
  status: number;
  body: string;
}

/** `body`, when given, is sent as JSON with its length; no answer in 30 s is an error naming the request. */
export function rawRequest(port: number | string, method: string, path: string, headers: Record<string, string> = {}, body?: string, host = '127.0.0.1'): Promise<Answer> {
  const json = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host, port, method, path, headers: { ...headers, ...json } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end(body);
  });
}
