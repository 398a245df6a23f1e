#!/usr/bin/python3
"""tests/attack-matrix/report.py RAW OUT TARGETS: the attack matrix's
report. RAW has one line per run as run-attack-matrix writes it
(compositor, scenario, OUTCOME line, alive|died|no-start|unavailable, wait
status, the declared outcome, the VICTIM line of a stall scenario;
tab-separated); TARGETS the compositors,
comma-separated. Writes OUT/attack-matrix.md and OUT/attack-matrix.json
and prints the table. Exit status 1 when wlseal-secure died or did not
match a declared outcome.
"""
import json, re, signal, sys

raw, out, targets = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
KV = re.compile(r'([\w-]+)=("([^"]*)"|\S+)')

def fields(line):
    return {m.group(1): (m.group(3) if m.group(3) is not None else m.group(2))
            for m in KV.finditer(line)}

def signame(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"

rows, order = {}, []
for rec in open(raw).read().splitlines():
    target, scen, line, state, status, expect, victim = (rec.split('\t') + [''] * 7)[:7]
    o = fields(line) if line else {}
    entry = {'compositor': target, 'scenario': scen, 'outcome_line': line,
             'expect_secure': expect, 'compositor_state': state}
    if victim:
        entry['victim_line'] = victim
        entry['victim'] = {k: int(v) for k, v in fields(victim).items()
                           if re.fullmatch(r'-?\d+', v)}
    if state in ('died', 'no-start') and status:
        # bash's wait status: 128+N for a death by signal N.
        st = int(status)
        if st > 128:
            entry['signal'] = st - 128
            entry['signal_name'] = signame(st - 128)
        else:
            entry['exit_code'] = st
    entry.update({k: o[k] for k in ('result', 'code', 'interface', 'message',
                                    'probe-frames', 'match', 'note') if k in o})
    # The cell a person reads.
    if state == 'unavailable':
        cell = 'not available'
    elif state == 'no-start':
        cell = 'did not start'
    elif 'signal' in entry:
        cell = f"**compositor killed by {entry['signal_name']} ({entry['signal']})**"
    elif state == 'died':
        cell = f"**compositor exited {entry.get('exit_code')}**"
    elif not o:
        cell = 'attacker gave no outcome (timeout or crash)'
    else:
        r = o.get('result', '?')
        if r == 'refused':
            cell = f"refused: {o.get('interface')}.{o.get('code')} \"{o.get('message', '')}\""
        elif r == 'policy-refused':
            cell = (f"refused, still connected: {o.get('interface')} reason {o.get('code')} "
                    f"\"{o.get('message', '')}\"")
        elif r == 'disconnected':
            cell = 'client disconnected'
        elif r == 'compositor-gone':
            cell = '**compositor unreachable**'
        elif r == 'skipped':
            cell = 'n/a (' + o.get('note', '') + ')'
        elif r == 'error':
            cell = 'attack error: ' + o.get('note', '')
        else:
            cell = r
        got, _, want = o.get('probe-frames', '0/0').partition('/')
        if r not in ('skipped', 'error') and want and got != want:
            cell += f"; probe got {got}/{want} frames"
    entry['cell'] = cell
    if scen not in rows:
        rows[scen] = {}
        order.append(scen)
    rows[scen][target] = entry

# Verdict: only wlseal secure is held to the declared outcomes.
problems = []
for scen in order:
    e = rows[scen].get('wlseal-secure')
    if not e:
        continue
    if e['compositor_state'] != 'alive':
        problems.append(f"{scen}: {e['cell']}")
    elif not e['outcome_line']:
        problems.append(f"{scen}: no outcome from the attacker")
    elif e.get('result') == 'error':
        problems.append(f"{scen}: {e['cell']}")
    elif e.get('match') != 'yes':
        problems.append(f"{scen}: got {e['cell']}, declared {e['expect_secure']}")
    else:
        got, _, want = e.get('probe-frames', '0/0').partition('/')
        if e.get('result') != 'skipped' and got != want:
            problems.append(f"{scen}: probe got {got}/{want} frames")

def esc(s):
    return s.replace('|', '\\|').replace('\n', ' ')

md = ['# wlseal attack matrix', '',
      'Each cell: what the compositor did with `wlseal-attack SCENARIO`, '
      'run against a fresh compositor (headless). "killed by" is the '
      "compositor's own wait status. \"probe\" counts frame callbacks a fresh "
      'well-behaved client got after the attack (3 expected).', '',
      '| scenario | declared (secure) | ' + ' | '.join(targets) + ' |',
      '|---|---|' + '---|' * len(targets)]
for scen in order:
    r = rows[scen]
    exp = next(iter(r.values()))['expect_secure']
    md.append(f"| {scen} | {esc(exp)} | " +
              ' | '.join(esc(r[t]['cell']) if t in r else '' for t in targets) + ' |')
stalls = [s for s in order if any('victim' in e for e in rows[s].values())]
if stalls:
    md += ['', '## Stall scenarios: the victim beside the attack', '',
           'A well-behaved client redrawing a 256x256 window on every frame '
           'callback during the attack: frame callbacks in a 5 s window, the '
           'worst gap between two (ms; at: when it ended, ms into the window); '
           "a fresh client's time from connect to its first frame, connecting "
           '1 s into the window / after the attack (ms, -1: none within 10 s). '
           'Reported, not judged.', '',
           '| scenario | ' + ' | '.join(targets) + ' |',
           '|---|' + '---|' * len(targets)]

    def vcell(e):
        v = e.get('victim') if e else None
        if not v:
            return e['cell'] if e else ''
        return (f"{v.get('frames')} frames, gap {v.get('worst_gap_ms')} "
                f"(at {v.get('worst_gap_at_ms')}); "
                f"first {v.get('first_frame_ms')} / {v.get('after_first_frame_ms')}")
    for scen in stalls:
        md.append(f"| {scen} | " + ' | '.join(esc(vcell(rows[scen].get(t)))
                                              for t in targets) + ' |')
md += ['', '## Compositor deaths', '']
for t in targets:
    dead = [s for s in order if t in rows[s] and rows[s][t]['compositor_state'] == 'died']
    md.append(f"- {t}: {len(dead)}" + (f" ({', '.join(dead)})" if dead else ''))
md += ['', '## wlseal secure verdict', '']
if 'wlseal-secure' not in targets:
    md.append('- wlseal-secure was not run')
else:
    md += ([f"- FAIL {p}" for p in problems] if problems else
           ['- every scenario matched its declared outcome; no death'])
open(f"{out}/attack-matrix.md", 'w').write('\n'.join(md) + '\n')
json.dump({'compositors': targets, 'scenarios': order,
           'results': [rows[s][t] for s in order for t in targets if t in rows[s]],
           'secure_problems': problems},
          open(f"{out}/attack-matrix.json", 'w'), indent=1)
print('\n'.join(md))
sys.exit(1 if problems else 0)
