import { describe, expect, it } from 'vitest';
import { installCommand } from './install-command.js';

describe('installCommand (issue 26.5)', () => {
  it.each<[string, string, string]>([
    ['Debian', 'ID=debian\nVERSION_ID="12"\n', 'sudo apt-get install bubblewrap'],
    ['Ubuntu', 'ID=ubuntu\nID_LIKE=debian\n', 'sudo apt-get install bubblewrap'],
    ['Linux Mint, by ID_LIKE', 'ID=linuxmint\nID_LIKE="ubuntu debian"\n', 'sudo apt-get install bubblewrap'],
    ['Fedora', 'ID=fedora\n', 'sudo dnf install bubblewrap'],
    ['Rocky, by ID_LIKE', 'ID="rocky"\nID_LIKE="rhel centos fedora"\n', 'sudo dnf install bubblewrap'],
    ['Arch', 'ID=arch\n', 'sudo pacman -S bubblewrap'],
    ['Alpine', 'ID=alpine\n', 'sudo apk add bubblewrap'],
    ['openSUSE', 'ID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n', 'sudo zypper install bubblewrap'],
    ['unknown', 'ID=nixos\n', 'install the bubblewrap package with your package manager'],
    ['no file', '', 'install the bubblewrap package with your package manager'],
  ])('%s', (_name, osRelease, expected) => {
    expect(installCommand('bubblewrap', osRelease)).toBe(expected);
  });
});
