"""One-off, independent of our reader: the device's own figures in TCX files, read with Python's
xml.etree. Prints one JSON line per file: per Activity/Course its sport, the laps' DistanceMeters
sum and the last cumulative trackpoint DistanceMeters (km), first and last trackpoint time.
Usage: python3 tools/tcx-totals.py *.tcx"""
import json, sys, xml.etree.ElementTree as ET

NS = '{http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2}'
for path in sys.argv[1:]:
    root = ET.fromstring(open(path, 'rb').read().lstrip())  # one file has bytes before <?xml
    found = []
    for tag in ('Activity', 'Course'):
        for item in root.iter(NS + tag):
            laps = sum(float(lap.findtext(NS + 'DistanceMeters') or 0) for lap in item.findall(NS + 'Lap'))
            points = list(item.iter(NS + 'Trackpoint'))
            cumulative = [float(p.findtext(NS + 'DistanceMeters')) for p in points if p.find(NS + 'DistanceMeters') is not None]
            times = [p.findtext(NS + 'Time') for p in points if p.find(NS + 'Time') is not None]
            found.append({'tag': tag, 'sport': item.get('Sport'), 'lapsKm': laps / 1000,
                          'lastCumulativeKm': cumulative[-1] / 1000 if cumulative else None,
                          'first': times[0] if times else None, 'last': times[-1] if times else None,
                          'creator': item.findtext(NS + 'Creator/' + NS + 'Name')})
    print(json.dumps({'file': path.split('/')[-1], 'items': found}))
