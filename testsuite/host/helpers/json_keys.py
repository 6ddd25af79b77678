#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The JSON names of the smc objects against the list in smc(8).

    json_keys.py list MANPAGE DIR    each object's names found in DIR
    json_keys.py check MANPAGE DIR   exit 1 if one is not in the man page

DIR holds OBJECT.N.json files (the object as smc(8) names it: "socket",
"dump read", ...), each the -j output of that object. The man page's
section JSON has a subsection "Names by object": one .TP entry per
object, its tag the object's name in quotes ("dump read"), its body the
names, nothing else. The subsection "One name for one thing" says which
names stand for a connection's and a packet's ends, interfaces and
modes; the check also refuses the other spellings seen in smc's history
(src, sport, lport, local, ifindex, ...) and mode values other than the
documented ones.
"""
import glob, json, os, re, sys

# spellings the one vocabulary replaced
SYNONYMS = {"src", "dst", "sport", "dport", "lport", "pport", "rport",
            "local", "peer", "laddr", "raddr", "ifindex", "linkid",
            "local_addr", "peer_addr", "remote_address", "remote_port"}
# "mode": SMC-R, SMC-D or TCP; dump show's capture filters SMC (both)
# and all; an unknown record mode as "mode-N"
MODES = {"SMC-R", "SMC-D", "TCP", "SMC", "all", None}


def man_lists(path):
    page = open(path).read().replace("\\_", "_").replace("\\-", "-")
    sec = re.search(r"^\.SH JSON$(.*?)(?=^\.SH )", page, re.S | re.M)
    if not sec:
        sys.exit("%s: no section JSON" % path)
    sub = re.search(r'^\.SS "?Names by object"?$(.*?)(?=^\.S[HS] |\Z)',
                    sec.group(1), re.S | re.M)
    if not sub:
        sys.exit("%s: no subsection Names by object" % path)
    lists = {}
    for entry in re.split(r"^\.TP$", sub.group(1), flags=re.M)[1:]:
        lines = entry.strip("\n").split("\n")
        tag = re.match(r'^\.[BI]R? "([a-z ]+)"', lines[0])
        if not tag:
            sys.exit("%s: bad tag %r" % (path, lines[0]))
        body = " ".join(re.sub(r"^\.[A-Za-z]+ ?", "", l) for l in lines[1:])
        lists[tag.group(1)] = set(re.findall(r"[a-z0-9_]+", body))
    return lists


def walk(o, keys, modes, values=None):
    # values: the names that hold a value, not an object: "peer" as an
    # address is an old spelling, "peer" the object of a connection's
    # other end is not
    if isinstance(o, dict):
        for k, v in o.items():
            keys.add(k)
            if values is not None and not isinstance(v, dict):
                values.add(k)
            if k == "mode" and not (isinstance(v, str) and
                                    re.fullmatch(r"mode-\d+", v)):
                modes.add(v)
            walk(v, keys, modes, values)
    elif isinstance(o, list):
        for v in o:
            walk(v, keys, modes, values)


def found(d):
    objs = {}
    for f in sorted(glob.glob(os.path.join(d, "*.json"))):
        obj = os.path.basename(f).rsplit(".", 2)[0]
        keys, modes, values = objs.setdefault(obj, (set(), set(), set()))
        walk(json.load(open(f)), keys, modes, values)
    return objs


def main():
    cmd, man, d = sys.argv[1:4]
    objs = found(d)
    if cmd == "list":
        for obj, (keys, modes, values) in objs.items():
            print("%s: %s" % (obj, " ".join(sorted(keys))))
        return 0
    lists = man_lists(man)
    bad = 0
    for obj, (keys, modes, values) in sorted(objs.items()):
        if obj not in lists:
            print("%s: not in smc(8) JSON, Names by object" % obj)
            bad += 1
            continue
        missing = sorted(keys - lists[obj])
        if missing:
            print("%s: undocumented: %s" % (obj, " ".join(missing)))
            bad += 1
        other = sorted(values & SYNONYMS)
        if other:
            print("%s: other spellings: %s" % (obj, " ".join(other)))
            bad += 1
        odd = sorted(map(str, modes - MODES))
        if odd:
            print("%s: mode values: %s" % (obj, " ".join(odd)))
            bad += 1
        if not missing:
            print("%s: %d names, all listed" % (obj, len(keys)))
    for obj in sorted(set(lists) - set(objs)):
        print("%s: listed, not run by the test" % obj)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
