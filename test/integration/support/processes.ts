import * as fs from 'node:fs';

/** Live (not zombie) processes whose command line matches, as "pid: command line". */
export function processesMatching(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))) continue;
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (pattern.test(command)) found.push(`${pid}: ${command}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
