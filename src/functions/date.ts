/** PHP 7.4 `date()` in UTC (spec 02 §11.6). */
import { civilFromTimestamp, dayOfWeek, dayOfYear, daysInMonth, isLeap, isoWeek } from './strtotime/calendar.ts';

const DAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_FULL = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MON_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MON_FULL = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** C `%0<width>d` (the sign counts towards the width). */
const pad = (n: number, width: number): string => (n < 0 ? '-' + String(-n).padStart(width - 1, '0') : String(n).padStart(width, '0'));

function englishSuffix(n: number): string {
  if (n >= 10 && n <= 19) return 'th';
  switch (n % 10) {
    case 1:
      return 'st';
    case 2:
      return 'nd';
    case 3:
      return 'rd';
  }
  return 'th';
}

/** `date(format, ts)` for the UTC time zone. */
export function phpDate(format: string, ts: bigint): string {
  if (format === '') return '';
  const t = civilFromTimestamp(ts);
  const dow = dayOfWeek(t.y, t.m, t.d);
  let out = '';
  for (let k = 0; k < format.length; k++) {
    const ch = format[k]!;
    switch (ch) {
      // day
      case 'd':
        out += pad(t.d, 2);
        break;
      case 'D':
        out += DAY_SHORT[dow];
        break;
      case 'j':
        out += String(t.d);
        break;
      case 'l':
        out += DAY_FULL[dow];
        break;
      case 'S':
        out += englishSuffix(t.d);
        break;
      case 'w':
        out += String(dow);
        break;
      case 'N':
        out += String(dow === 0 ? 7 : dow);
        break;
      case 'z':
        out += String(dayOfYear(t.y, t.m, t.d));
        break;
      // week
      case 'W':
        out += pad(isoWeek(t.y, t.m, t.d).week, 2);
        break;
      case 'o':
        out += String(isoWeek(t.y, t.m, t.d).year);
        break;
      // month
      case 'F':
        out += MON_FULL[t.m - 1];
        break;
      case 'm':
        out += pad(t.m, 2);
        break;
      case 'M':
        out += MON_SHORT[t.m - 1];
        break;
      case 'n':
        out += String(t.m);
        break;
      case 't':
        out += String(daysInMonth(t.y, t.m));
        break;
      // year
      case 'L':
        out += isLeap(t.y) ? '1' : '0';
        break;
      case 'y':
        out += pad(t.y % 100, 2);
        break;
      case 'Y':
        out += (t.y < 0 ? '-' : '') + String(Math.abs(t.y)).padStart(4, '0');
        break;
      // time
      case 'a':
        out += t.h >= 12 ? 'pm' : 'am';
        break;
      case 'A':
        out += t.h >= 12 ? 'PM' : 'AM';
        break;
      case 'B': {
        let r = (Number(ts % 86400n) + 3600) * 10;
        if (r < 0) r += 864000;
        out += pad(Math.floor(r / 864) % 1000, 3);
        break;
      }
      case 'g':
        out += String(t.h % 12 ? t.h % 12 : 12);
        break;
      case 'G':
        out += String(t.h);
        break;
      case 'h':
        out += pad(t.h % 12 ? t.h % 12 : 12, 2);
        break;
      case 'H':
        out += pad(t.h, 2);
        break;
      case 'i':
        out += pad(t.i, 2);
        break;
      case 's':
        out += pad(t.s, 2);
        break;
      case 'u':
        out += '000000';
        break;
      case 'v':
        out += '000';
        break;
      // time zone (always UTC)
      case 'I':
        out += '0';
        break;
      case 'O':
        out += '+0000';
        break;
      case 'P':
        out += '+00:00';
        break;
      case 'T':
      case 'e':
        out += 'UTC';
        break;
      case 'Z':
        out += '0';
        break;
      // full date/time
      case 'c':
        out += phpDate('Y-m-d\\TH:i:sP', ts);
        break;
      case 'r':
        out += phpDate('D, d M Y H:i:s O', ts);
        break;
      case 'U':
        out += ts.toString();
        break;
      case '\\':
        // the next character is literal; a trailing backslash emits the terminating NUL byte
        k++;
        out += k < format.length ? format[k] : '\u0000';
        break;
      default:
        out += ch;
    }
  }
  return out;
}
