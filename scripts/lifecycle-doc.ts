/**
 * The tables of docs/lifecycle.md, printed from src/core/lifecycle (the model). The doc's tables
 * must equal this output (src/core/lifecycle/doc.test.ts checks it); run this after changing the
 * model and paste the tables in.
 */
import { lifecycleTables } from '../src/core/lifecycle/doc.js';

process.stdout.write(lifecycleTables());
