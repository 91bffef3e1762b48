import { describe, expect, it } from 'vitest';
import { installCommand, planInstall, type InstallHost } from './system-parts';

const debian: InstallHost = { platform: 'linux', root: false, passwordlessSudo: false, aptGet: true, brew: false };

describe('planInstall: how a missing system part gets installed', () => {
  it('given root on Debian, when redis-server is missing, then apt-get installs it, after an update if the first try fails', () => {
    const plan = planInstall('redis-server', { ...debian, root: true });
    expect(plan).toEqual({
      kind: 'run', manager: 'apt-get',
      steps: [['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'redis-server']],
      retryAfter: ['apt-get', 'update', '-qq'],
    });
  });

  it('given passwordless sudo, then the same commands run under sudo -n', () => {
    const plan = planInstall('chromium', { ...debian, passwordlessSudo: true });
    expect(plan.kind).toBe('run');
    if (plan.kind !== 'run') return;
    expect(plan.steps[0]!.slice(0, 2)).toEqual(['sudo', '-n']);
    expect(plan.steps[0]!.at(-1)).toBe('chromium');
    expect(plan.retryAfter).toEqual(['sudo', '-n', 'apt-get', 'update', '-qq']);
  });

  it('given macOS with Homebrew, then brew installs redis and the chromium cask', () => {
    const mac: InstallHost = { platform: 'darwin', root: false, passwordlessSudo: false, aptGet: false, brew: true };
    expect(planInstall('redis-server', mac)).toEqual({ kind: 'run', manager: 'brew', steps: [['brew', 'install', 'redis']] });
    expect(planInstall('chromium', mac)).toEqual({ kind: 'run', manager: 'brew', steps: [['brew', 'install', '--cask', 'chromium']] });
  });

  it('given an ordinary user without sudo, then one message names the part, the command and REDIS_URL', () => {
    const plan = planInstall('redis-server', debian);
    expect(plan.kind).toBe('manual');
    if (plan.kind !== 'manual') return;
    expect(plan.message).toContain('redis-server');
    expect(plan.message).toContain('`sudo apt-get install -y redis-server`');
    expect(plan.message).toContain('REDIS_URL');
    expect(plan.message).toContain('needs root or passwordless sudo');
    expect(plan.message.split('\n')).toHaveLength(1);
  });

  it('given macOS without Homebrew, then the message says brew and CHROMIUM_PATH', () => {
    const plan = planInstall('chromium', { platform: 'darwin', root: false, passwordlessSudo: false, aptGet: false, brew: false });
    expect(plan.kind === 'manual' && plan.message).toMatch(/Homebrew is not installed.*`brew install --cask chromium`.*CHROMIUM_PATH/);
  });

  it('given an ordinary user without sudo, when promtool is missing, then one message names Debian\'s prometheus package and PROMTOOL_PATH', () => {
    const plan = planInstall('promtool', debian);
    expect(plan.kind === 'manual' && plan.message).toMatch(/^promtool .*`sudo apt-get install -y prometheus`, or set PROMTOOL_PATH to a promtool binary\.$/);
    expect(planInstall('promtool', { ...debian, root: true })).toMatchObject({ kind: 'run', steps: [['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'prometheus']] });
  });

  it('given a system without apt-get or brew, then it does not pretend to install', () => {
    expect(planInstall('redis-server', { ...debian, root: true, aptGet: false }).kind).toBe('manual');
    expect(installCommand('chromium', 'linux')).toBe('sudo apt-get install -y chromium');
  });
});
