/** Tmp: the ack bench alone. */
import { runAckBench } from './ack.js';
const store = (process.argv[2] ?? 'embedded') as 'embedded' | 'postgres';
const fromCache = process.argv[3] === 'cache';
console.log(store, fromCache ? 'from cache' : 'waiting on api', JSON.stringify(await runAckBench({ store, answersFromCache: fromCache })));
