import { readFileSync } from 'node:fs';

/** Package managers by the `ID`/`ID_LIKE` words of /etc/os-release, and how each installs a package. */
const MANAGERS: Array<{ ids: readonly string[]; install: (pkg: string) => string }> = [
  { ids: ['debian', 'ubuntu'], install: (pkg) => `sudo apt-get install ${pkg}` },
  { ids: ['fedora', 'rhel', 'centos'], install: (pkg) => `sudo dnf install ${pkg}` },
  { ids: ['arch'], install: (pkg) => `sudo pacman -S ${pkg}` },
  { ids: ['alpine'], install: (pkg) => `sudo apk add ${pkg}` },
  { ids: ['suse', 'opensuse'], install: (pkg) => `sudo zypper install ${pkg}` },
];

/**
 * How to install a Linux package on this machine (`sudo apt-get install bubblewrap` on Debian
 * and Ubuntu, `dnf` on Fedora, …), from /etc/os-release; a plain sentence where it is unknown.
 */
export function installCommand(pkg: string, osRelease = readOsRelease()): string {
  const words = [...osRelease.matchAll(/^(?:ID|ID_LIKE)=["']?([^"'\n]*)/gm)].flatMap((m) => m[1]!.toLowerCase().split(/\s+/));
  const manager = MANAGERS.find((m) => m.ids.some((id) => words.includes(id)));
  return manager ? manager.install(pkg) : `install the ${pkg} package with your package manager`;
}

function readOsRelease(): string {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return '';
  }
}
