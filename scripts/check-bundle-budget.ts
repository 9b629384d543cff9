// The dashboard's size budget (issue #9), checked by `npm test` after `npm run build`: the initial
// JavaScript at most 170 kB gzip, and every route chunk at most 60 kB gzip (see bundle-size.ts).
import { INITIAL_BUDGET_BYTES, ROUTE_BUDGET_BYTES, measureBundle } from './bundle-size';

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
let size;
try {
  size = measureBundle();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const failures: string[] = [];
console.log(`initial JavaScript: ${kB(size.initial.bytes)} gzip in ${size.initial.files.length} files (budget ${kB(INITIAL_BUDGET_BYTES)})`);
if (size.initial.bytes > INITIAL_BUDGET_BYTES) failures.push(`the initial JavaScript is ${kB(size.initial.bytes)} gzip, over ${kB(INITIAL_BUDGET_BYTES)}`);
if (size.routes.length === 0) failures.push('no lazily loaded route: route-level code splitting is gone');
for (const route of size.routes) if (route.bytes > ROUTE_BUDGET_BYTES) failures.push(`${route.key} is ${kB(route.bytes)} gzip, over ${kB(ROUTE_BUDGET_BYTES)}`);
const largest = size.routes[0];
if (largest)
  console.log(`route chunks: ${size.routes.length}, the largest ${largest.key} at ${kB(largest.bytes)} gzip (budget ${kB(ROUTE_BUDGET_BYTES)} each)`);

if (failures.length > 0) {
  console.error(`The dashboard is over its size budget:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
