/**
 * The ceiling: a bare Fastify process answering each benchmarked path with a fixed body of the
 * same size as the real one, from memory. Started by run.ts; reads its bodies from a JSON file.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [bodiesFile, portArg] = process.argv.slice(2);
const bodies = JSON.parse(readFileSync(bodiesFile!, 'utf8')) as Record<string, string>;
const app = Fastify({ logger: false });
app.all('/*', (request, reply) => {
  const body = bodies[`${request.method} ${request.url}`] ?? bodies[`${request.method} ${request.url.split('?')[0]}`] ?? '{"success":true}';
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
await app.listen({ host: '127.0.0.1', port: Number(portArg) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
