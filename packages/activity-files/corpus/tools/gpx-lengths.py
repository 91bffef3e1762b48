"""One-off, independent of our reader: what a GPX holds, read with Python's xml.etree. A GPX
carries no total, so its km is the track's length: haversine on the mean earth radius
(6371.0088 km), summed within each <trkseg> (no distance across a gap). Also the length of any
planned route (<rte>), the encoding declared and the first and last point time.
Usage: python3 tools/gpx-lengths.py *.gpx"""
import json, math, re, sys, xml.etree.ElementTree as ET

RADIUS_KM = 6371.0088

def haversine(a, b):
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * RADIUS_KM * math.asin(math.sqrt(h))

def local(tag):
    return tag.rsplit('}', 1)[-1]

def length(points):
    return sum(haversine(points[i], points[i + 1]) for i in range(len(points) - 1))

for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    declared = re.search(rb'encoding="([^"]+)"', data[:200])
    root = ET.fromstring(data)  # expat honours the declared encoding
    track = route = 0.0
    times, types = [], set()
    for element in root.iter():
        name = local(element.tag)
        if name == 'trkseg':
            points = [p for p in element if local(p.tag) == 'trkpt']
            track += length([(float(p.get('lat')), float(p.get('lon'))) for p in points])
            times += [c.text for p in points for c in p if local(c.tag) == 'time']
        elif name == 'rte':
            route += length([(float(p.get('lat')), float(p.get('lon'))) for p in element if local(p.tag) == 'rtept'])
        elif name == 'type' and element.text:
            types.add(element.text)
    print(json.dumps({'file': path.split('/')[-1], 'encoding': declared.group(1).decode() if declared else None,
                      'trackKm': track, 'routeKm': route, 'first': times[0] if times else None,
                      'last': times[-1] if times else None, 'types': sorted(types)}))
