"""Writes ../manifest.json from the three one-off readers (fit-totals.mjs, tcx-totals.py,
gpx-lengths.py; none of them our reader) and the facts below, written by hand from each source
repository (device, licence, the totals its tests state). Run from the corpus folder:
    python3 tools/make-manifest.py
Days are the local days (in the entry's timeZone, Europe/Tallinn unless given) of the file's
first and last point; expected km is rounded to 0.01 km like the reader's."""
import json, subprocess, sys
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

REPOS = {
    'dtcooper/python-fitparse': ('d88bb6997138c38d0c578aeaaf4108df0711d1f6', 'MIT'),
    'tormoder/fit': ('bd251afaa552f45e3b99f1e3d1d378f51f2f655a', 'MIT'),
    'sports-alliance/sports-lib': ('a96f6d8b734ca0cd910d4e85eb7729ce3c38baa2', 'AGPL-3.0'),
    'mshroyer/coursepointer': ('54f1e96fd2b074e69d4cbd555686384ef9af881a', 'MIT'),
    'dblock/tcx': ('65046bd3005ee5694c325be7c18394c66a7d916f', 'CC-BY-SA-4.0 (spec/data/LICENSE)'),
    'vkurup/python-tcxparser': ('5ecaac92f8f2def592ed495b7877a97121dc59c4', 'BSD-2-Clause'),
    'firefly-cpp/tcx-test-files': ('e39a3134b6fa183f493cb61e1a0fc79f9f26ea0f', 'CC-BY-SA-4.0'),
    'alenrajsp/tcxreader': ('4b0daf5211a7848695918dd84c27ff44891d2e93', 'MIT'),
    'tkrajina/gpxgo': ('0a078e11c1cccf5466ffb087efcecff0246235c0', 'Apache-2.0'),
    'tkrajina/gpxpy': ('017d9961ee9aa86ccdbf5bb50a4e2341d5c42f4b', 'Apache-2.0'),
    'GPSBabel/gpsbabel': ('62c7ca93ba8acfcedfedcef79ad99aad4fa003f0', 'GPL-2.0'),
}
SPEC = 'sports-lib src/specs/activities-parsing.integration.spec.ts'
FIT = 'FIT session total_distance'
LAPS = "TCX laps DistanceMeters"
LAST = "TCX last cumulative trackpoint DistanceMeters (larger than the laps' sum)"
TRACK = 'track length: the GPX has no total (haversine per <trkseg>, tools/gpx-lengths.py)'

# file: (repo, path, device, kind, entry type of a one-sport file or None, note on the km, extra expectations)
FILES = {
    'garmin-fenix5-run.fit': ('dtcooper/python-fitparse', 'tests/files/garmin-fenix-5-run.fit', 'Garmin fenix 5', 'activity', 'OUTDOOR_RUN', None, {}),
    'garmin-fenix5-walk.fit': ('dtcooper/python-fitparse', 'tests/files/garmin-fenix-5-walk.fit', 'Garmin fenix 5', 'activity', 'WALK', None, {}),
    'garmin-fenix5-ride.fit': ('dtcooper/python-fitparse', 'tests/files/garmin-fenix-5-bike.fit', 'Garmin fenix 5', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'garmin-edge820-commute.fit': ('dtcooper/python-fitparse', 'tests/files/garmin-edge-820-bike.fit', 'Garmin Edge 820 (cycling/commuting)', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'wahoo-elemnt-ride.fit': ('dtcooper/python-fitparse', 'tests/files/2019-02-17-062644-ELEMNT-297E-195-0.fit', 'Wahoo ELEMNT', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'coros-pace2-ride.fit': ('dtcooper/python-fitparse', 'tests/files/coros-pace-2-cycling-misaligned-fields.fit', 'COROS PACE 2 (fields not aligned to the byte)', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'strava-android-run-decoder-error.fit': ('dtcooper/python-fitparse', 'tests/files/strava-android-app-201.10-b1218918.fit', 'Strava app for Android 201.10', 'activity', 'OUTDOOR_RUN',
        'the session comes first; the decoder stops with an error at byte 7472 and the file ends 19 bytes short of the data size its header declares', {'days': ['2021-09-27']}),
    'garmin-edge500-ride.fit': ('dtcooper/python-fitparse', 'tests/files/garmin-edge-500-activity.fit', 'Garmin Edge 500', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'garmin-fr735xt-pool-swim.fit': ('dtcooper/python-fitparse', 'tests/files/event_timestamp.fit', 'Garmin Forerunner 735XT (lap swimming)', 'activity', 'SWIMMING', None, {}),
    'garmin-edge810-ride.fit': ('dtcooper/python-fitparse', 'tests/files/Edge810-Vector-2013-08-16-15-35-10.fit', 'Garmin Edge 810 with Garmin Vector', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'garmin-fenix3-pool-swim.fit': ('tormoder/fit', 'testdata/fitsdk/activity_poolswim_with_hr.fit', 'Garmin fenix 3 (lap swimming; a Garmin FIT SDK example file)', 'activity', 'SWIMMING', None, {}),
    'garmin-fenix2-run.fit': ('tormoder/fit', 'testdata/me/activity-small-fenix2-run.fit', 'Garmin fenix 2', 'activity', 'OUTDOOR_RUN', None, {}),
    'garmin-fenix2-multisport.fit': ('tormoder/fit', 'testdata/me/activity-large-fenxi2-multisport.fit', 'Garmin fenix 2 (multisport: generic, run, run, ride, with transitions)', 'activity', None, None, {}),
    'garmin-edge530-ride.fit': ('tormoder/fit', 'testdata/bpg/garmin.fit', 'Garmin Edge 530 (cycling/road)', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'coros-apex-pro-run.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/runs/fit/6916663933.fit', 'COROS APEX Pro', 'activity', 'OUTDOOR_RUN', f'= 10743.64 m stated in {SPEC}', {}),
    'suunto9-trail-run.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/runs/fit/6909950168.fit', 'Suunto 9 Baro (running/trail)', 'activity', 'OUTDOOR_RUN', f'= 6458 m stated in {SPEC}', {}),
    'zwift-virtual-ride.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/rides/fit/971150603.fit', 'Zwift (virtual ride; the file says cycling/generic)', 'activity', None, f'= 32227.5 m stated in {SPEC}', {}),
    'wahoo-elemnt-bolt-ride.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/rides/fit/7739869618.fit', 'Wahoo ELEMNT BOLT', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'garmin-fr945-treadmill.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/runs/fit/6860622783.fit', 'Garmin Forerunner 945 (running/treadmill)', 'activity', 'INDOOR_RUN', f'= 10630.37 m stated in {SPEC}', {}),
    'garmin-fr935-pool-swim.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/swim/fit/6688025408.fit', 'Garmin Forerunner 935 (lap swimming)', 'activity', 'SWIMMING', f'= 2300 m stated in {SPEC}', {}),
    'garmin-fr935-ironman.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/triathlons/fit/4623204522.fit', 'Garmin Forerunner 935 (Ironman triathlon: swim, T1, bike, T2, run)', 'activity', None,
        f'sessions 3933.3 + 180301.58 m ... stated in {SPEC}; the bike is split at local midnight by the records\' cumulative distance (105467.96 m at 20:59:59Z, from 4364.93 m)',
        {'parts': [('SWIMMING', 3.9333), ('OUTDOOR_CYCLE', 101.10303), ('OUTDOOR_CYCLE', 79.20004), ('OUTDOOR_RUN', 42.56391)]}),
    'garmin-fr945-triathlon.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/swim/fit/6788312639-1.fit', 'Garmin Forerunner 945 (triathlon: open-water swim, T1, bike, T2, run)', 'activity', None,
        f'swim session 1505.03 m stated in {SPEC}', {'parts': [('SWIMMING', 1.50503), ('OUTDOOR_CYCLE', 39.65337), ('OUTDOOR_RUN', 9.71566)]}),
    'garmin-vivoactive-hr-run.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/runs/fit/2067489619.fit', 'Garmin vivoactive HR', 'activity', 'OUTDOOR_RUN', f'= 4489.39 m stated in {SPEC}', {}),
    'garmin-edge1000-road-ride.fit': ('sports-alliance/sports-lib', 'src/specs/fixtures/rides/fit/3939576645.fit', 'Garmin Edge 1000 (cycling/road)', 'activity', 'OUTDOOR_CYCLE', f'= 42220.87 m stated in {SPEC}', {}),
    'garmin-connect-course.fit': ('mshroyer/coursepointer', 'integration/src/integration/data/cptr001.fit', 'Garmin Connect (a course drawn on the web; FIT file type course)', 'route', None, None, {}),
    'ridewithgps-course.fit': ('mshroyer/coursepointer', 'integration/src/integration/data/cptr003.fit', 'Ride with GPS (a course with points of interest; FIT file type course)', 'route', None, None, {}),
    'movescount-run.tcx': ('sports-alliance/sports-lib', 'samples/tcx/movescount.tcx', 'Suunto, exported from Movescount (last lap\'s trackpoints run past the laps\' sum)', 'activity', 'OUTDOOR_RUN', None, {}),
    'suunto-spartan-ultra-run.tcx': ('sports-alliance/sports-lib', 'samples/tcx/unknown_example.tcx', 'Suunto Spartan Ultra (32 laps, trackpoints without DistanceMeters)', 'activity', 'OUTDOOR_RUN', None, {}),
    'polar-v800-run.tcx': ('sports-alliance/sports-lib', 'src/specs/fixtures/runs/tcx/6281425038.tcx', 'Polar V800 (exported from Polar Flow; blank line before <?xml)', 'activity', 'OUTDOOR_RUN', None, {}),
    'strava-android-run.tcx': ('sports-alliance/sports-lib', 'src/specs/fixtures/runs/tcx/1604524853.tcx', 'Strava app for Android (TCX export)', 'activity', 'OUTDOOR_RUN', f'= 6106.6 m stated in {SPEC}', {}),
    'garmin-fr945-treadmill.tcx': ('dblock/tcx', 'spec/data/running/treadmill_1.tcx', 'Garmin Forerunner 945 treadmill run, exported from Garmin Connect (no positions)', 'activity', None, None, {}),
    'garmin-fr410-run.tcx': ('vkurup/python-tcxparser', 'tests/files/test.tcx', 'Garmin Forerunner 410 (crosses midnight in Europe/Tallinn)', 'activity', None,
        'laps 4689.0 m; the last trackpoint says 4686.4 m', {}),
    'garmin-vivoactive-hr-pool-swim.tcx': ('firefly-cpp/tcx-test-files', 'pool-swim/pool_swim-activity_1.tcx', 'Garmin vivoactive HR (pool swim; Sport="Other")', 'activity', None, None, {}),
    'garmin-vivoactive-hr-walk.tcx': ('firefly-cpp/tcx-test-files', 'walking/walking_activity_1.tcx', 'Garmin vivoactive HR (walk; Sport="Other")', 'activity', None, None, {}),
    'garmin-vivoactive-hr-xc-ski.tcx': ('firefly-cpp/tcx-test-files', 'cross-country-skiing/cross-country-skiing_activity_1.tcx', 'Garmin vivoactive HR (cross-country skiing; Sport="Other")', 'activity', None, None, {}),
    'mapmyride-ride.tcx': ('alenrajsp/tcxreader', 'tcxreader/tests/data/mapmyride_biking.tcx', 'MapMyRide (phone app)', 'activity', 'OUTDOOR_CYCLE', None, {}),
    'alltrails-course.tcx': ('dblock/tcx', 'spec/data/courses/brighton-beach.tcx', 'AllTrails (a TCX <Course>)', 'route', None, None, {}),
    'garmin-connect-run.gpx': ('sports-alliance/sports-lib', 'samples/gpx/garmin.gpx', 'Garmin Connect GPX export (<type>running)', 'activity', 'OUTDOOR_RUN', None, {}),
    'garmin-connect-road-ride.gpx': ('sports-alliance/sports-lib', 'src/specs/fixtures/rides/gpx/4108490848.gpx', 'Garmin Connect GPX export (<type>road_biking)', 'activity', 'OUTDOOR_CYCLE', f'49909 m stated in {SPEC}', {}),
    'strava-android-run.gpx': ('sports-alliance/sports-lib', 'src/specs/fixtures/runs/gpx/1681613317.gpx', 'Strava GPX export of a Strava Android run (<type>9, Strava\'s numeric type for Run)', 'activity', 'OUTDOOR_RUN', f'4593 m stated in {SPEC}', {}),
    'amazfit-run.gpx': ('sports-alliance/sports-lib', 'samples/gpx/amazfit.gpx', 'Amazfit (<type>Running)', 'activity', 'OUTDOOR_RUN', None, {}),
    'google-mytracks-walk.gpx': ('tkrajina/gpxgo', 'test_files/visnjan.gpx', 'Google My Tracks on Android', 'activity', None, None, {}),
    'garmin-etrex20x-track.gpx': ('tkrajina/gpxpy', 'test_files/around-visnjan-with-car.gpx', 'Garmin eTrex 20x', 'activity', None, None, {}),
    'gpsbabel-hike-segments.gpx': ('tkrajina/gpxpy', 'test_files/korita-zbevnica.gpx', 'a GPS receiver\'s hike through GPSBabel (4 segments, some points without time)', 'activity', None, None, {}),
    'expertgps-latin1-track-and-route.gpx': ('GPSBabel/gpsbabel', 'reference/expertgps.gpx', 'ExpertGPS 1.3.7 (ISO-8859-1; a recorded track beside a planned route)', 'activity', None,
        'the route beside it (11.19 km) is not counted', {}),
    'gaiagps-route.gpx': ('mshroyer/coursepointer', 'integration/src/integration/data/cptr004.gpx', 'Gaia GPS (a planned <rte> with waypoints, no track)', 'route', None, None, {}),
    'ridewithgps-untimed-track.gpx': ('mshroyer/coursepointer', 'integration/src/integration/data/cptr003.gpx', 'Ride with GPS GPX track export (no timestamps)', 'activity', None, None, {'days': []}),
}

def run(command):
    return {row['file']: row for row in map(json.loads, subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines())}

def days(first, last, zone):
    if first is None:
        return []
    tz = ZoneInfo(zone)
    parse = lambda text: datetime.fromisoformat(text.replace('Z', '+00:00')).astimezone(tz).date()
    start, end = parse(first), parse(last)
    return [(start + timedelta(days=n)).isoformat() for n in range((end - start).days + 1)]

names = sorted(FILES)
fit = run(['node', 'tools/fit-totals.mjs', *[n for n in names if n.endswith('.fit')]])
tcx = run(['python3', 'tools/tcx-totals.py', *[n for n in names if n.endswith('.tcx')]])
gpx = run(['python3', 'tools/gpx-lengths.py', *[n for n in names if n.endswith('.gpx')]])
manifest = []
for name in names:
    repo, path, device, kind, entry_type, note, extra = FILES[name]
    commit, licence = REPOS[repo]
    zone = extra.get('timeZone', 'Europe/Tallinn')
    fmt = name.rsplit('.', 1)[1]
    if fmt == 'fit':
        row = fit[name]
        km, source, first, last = row['km'], FIT, row['first'], row['last']
        if kind == 'route':
            assert row['type'] == 'course', name
            km, source = row['lapsKm'], "FIT file type course: no sessions; the planned course's lap total_distance, not distance done"
    elif fmt == 'tcx':
        item = tcx[name]['items'][0]
        laps, cumulative = item['lapsKm'], item['lastCumulativeKm'] or 0
        km, source = (cumulative, LAST) if cumulative > laps else (laps, LAPS)
        first, last = item['first'], item['last']
        if kind == 'route':
            assert item['tag'] == 'Course', name
            source = "TCX <Course>: the planned course's lap DistanceMeters, not distance done"
    else:
        row = gpx[name]
        km, source, first, last = row['trackKm'], TRACK, row['first'], row['last']
        if kind == 'route':
            km, source = row['routeKm'], 'GPX <rte> only: the planned route\'s length, not distance done'
    if note:
        source += f'; {note}'
    expected = {'km': round(km, 2), 'kmSource': source}
    if kind == 'route':
        expected['error'] = 'ACTIVITY_FILE_IS_ROUTE'
    else:
        if 'parts' in extra:
            expected['parts'] = [{'entryType': t, 'km': round(k, 2)} for t, k in extra['parts']]
        elif entry_type:
            expected['parts'] = [{'entryType': entry_type, 'km': round(km, 2)}]
        expected['days'] = extra.get('days', days(first, last, zone))
        if len(expected['days']) > 1 and 'parts' in expected and 'parts' not in extra:
            del expected['parts']
    entry = {'file': name, 'source': {'repo': repo, 'path': path, 'commit': commit, 'licence': licence}, 'device': device, 'format': fmt, 'kind': kind}
    if 'timeZone' in extra:
        entry['timeZone'] = zone
    entry['expected'] = expected
    manifest.append(entry)
json.dump(manifest, open('manifest.json', 'w'), indent=2, ensure_ascii=False)
open('manifest.json', 'a').write('\n')
print(len(manifest), 'files')
