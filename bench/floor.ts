/**
 * The physical floor of P1: the same pages fetched one after another over one keep-alive
 * connection and decoded with JSON.parse, nothing else. Usage: node bench/floor.ts <base> <total> <limit>
 */
import { forEachPage } from './pages.ts';

const [base, totalText, limitText] = process.argv.slice(2);
await forEachPage(base!, Number(totalText), Number(limitText), () => {});
