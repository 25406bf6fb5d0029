/**
 * pa-simulator in a process of its own for the platform bench: the load generator and the
 * platform do not share an event loop. Prints one JSON line (URL, client, admin token), then
 * serves until its parent closes its stdin.
 */
import { readFileSync } from 'node:fs';
import { PlatformSimulator } from '../src/pa-simulator/simulator.js';

const [certPath, keyPath] = process.argv.slice(2);
const simulator = new PlatformSimulator({
  tls: { cert: readFileSync(certPath!, 'utf8'), key: readFileSync(keyPath!, 'utf8') },
  // The bench deposits the same files in several loops: no life cycle, no request re-checking
  // beyond what a platform does, so that both loops measure the same platform work.
  scenarios: { '*': { outcome: 'deposited' } },
});
const url = await simulator.start();
process.stdout.write(`${JSON.stringify({ url, client: simulator.clients[0], adminToken: simulator.adminToken })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void simulator.stop().then(() => process.exit(0)));
