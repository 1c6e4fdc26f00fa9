#!/usr/bin/env python3
"""Virtual-screening enrichment of a docking run: ROC AUC, EF1%, EF5%, adjusted logAUC.

usage: enrichment.py RESULTS.csv LABELS.csv [--label TEXT] [--name-col C] [--score-col C]
                     [--status-col C] [--json FILE]
       enrichment.py --self-test

RESULTS.csv  one row per docked record, with a header: a name column ("name"), a score column
             ("score_kcal_mol", else "score"; lower = better) and optionally a status column
             ("status": a row counts only when it is "ok" or empty). Names may repeat (DUD-E
             keeps several protomers of one molecule under one name): a molecule's score is
             the BEST (lowest) valid score over its records.
LABELS.csv   name,active (1 = active, 0 = decoy), one row per molecule; the molecules counted.
             Molecules with no valid score (no row, every row failed, or a non-finite score)
             rank last, tied with each other; they are counted and printed. Rows whose name is
             not in LABELS are ignored (counted).

Metrics (over the molecules of LABELS, ties handled as expected values over tied orderings):
  AUC         area under the ROC curve = P(random active ranks above random decoy), ties 1/2
  EF x%       (actives in the best n) / (n x actives / molecules), n = max(1, round(x% of
              the molecules)); an active tied across the cut-off counts fractionally
  logAUC      Mysinger & Shoichet, J Chem Inf Model 50 (2010) 1561: the ROC curve's area
              with a log10 FPR axis from 0.001 to 1, divided by 3 (log10 1000); computed exactly
              for the piecewise-linear ROC curve. Adjusted logAUC = logAUC minus the random
              classifier's (1 - 0.001) / (3 ln 10) = 0.1446 (the paper's 0.145), in %:
              random ~ 0, perfect 85.5.
Standard library only (no numpy needed): runs with /usr/bin/python3 or any python3.
"""
import csv
import json
import math
import sys

LAMBDA = 0.001
LOG_RANDOM = (1.0 - LAMBDA) / (math.log(10.0) * math.log10(1.0 / LAMBDA))


def roc_points(scores, actives):
    """ROC vertices (FPR, TPR) for 'lower score = better'; tied scores give one diagonal step."""
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    n_act = sum(actives)
    n_dec = len(actives) - n_act
    pts = [(0.0, 0.0)]
    tp = fp = 0
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and scores[order[j]] == scores[order[i]]:
            j += 1
        for k in order[i:j]:
            if actives[k]:
                tp += 1
            else:
                fp += 1
        pts.append((fp / n_dec if n_dec else 0.0, tp / n_act if n_act else 0.0))
        i = j
    return pts


def auc(pts):
    return sum((x1 - x0) * (y0 + y1) / 2 for (x0, y0), (x1, y1) in zip(pts, pts[1:]))


def log_auc(pts, lam=LAMBDA):
    """Integral of TPR d(log10 FPR) over [lam, 1] / log10(1/lam), exact for linear segments."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x1 <= lam or x1 == x0:
            continue
        slope = (y1 - y0) / (x1 - x0)
        a = max(x0, lam)
        ya = y0 + slope * (a - x0)
        # TPR(x) = ya + slope (x - a) on [a, x1]: integral of TPR dx / (x ln 10)
        total += ((ya - slope * a) * math.log(x1 / a) + slope * (x1 - a)) / math.log(10.0)
    return total / math.log10(1.0 / lam)


def enrichment_factor(scores, actives, frac):
    n = len(scores)
    n_act = sum(actives)
    if n == 0 or n_act == 0:
        return float("nan"), 0
    n_sel = max(1, int(round(frac * n)))
    cut = sorted(scores)[n_sel - 1]
    better = [i for i in range(n) if scores[i] < cut]
    tied = [i for i in range(n) if scores[i] == cut]
    hits = sum(actives[i] for i in better)
    hits += (n_sel - len(better)) * sum(actives[i] for i in tied) / len(tied)
    return (hits / n_sel) / (n_act / n), n_sel


def metrics(scores, actives):
    pts = roc_points(scores, actives)
    ef1, n1 = enrichment_factor(scores, actives, 0.01)
    ef5, n5 = enrichment_factor(scores, actives, 0.05)
    la = log_auc(pts)
    return {"auc": auc(pts), "ef1": ef1, "ef1_n": n1, "ef5": ef5, "ef5_n": n5,
            "logauc": 100 * la, "adjusted_logauc": 100 * (la - LOG_RANDOM)}


def pick(header, wanted, options, what, required=True):
    if wanted:
        if wanted not in header:
            sys.exit("enrichment.py: no column %r (%s) in %s" % (wanted, what, header))
        return wanted
    for c in options:
        if c in header:
            return c
    if required:
        sys.exit("enrichment.py: no %s column (tried %s) in %s" % (what, options, header))
    return None


def evaluate(results, labels, name_col=None, score_col=None, status_col=None):
    with open(labels, newline="") as f:
        rows = list(csv.DictReader(f))
    label = {}
    for r in rows:
        label[r["name"]] = 1 if r["active"].strip() in ("1", "true", "True", "active") else 0
    best = {}
    counts = {"rows": 0, "rows_failed": 0, "rows_unlabelled": 0}
    with open(results, newline="") as f:
        rd = csv.DictReader(f)
        h = rd.fieldnames or []
        nc = pick(h, name_col, ["name"], "name")
        sc = pick(h, score_col, ["score_kcal_mol", "score"], "score")
        st = pick(h, status_col, ["status"], "status", required=False)
        for r in rd:
            counts["rows"] += 1
            name = r[nc].strip()
            if name not in label:
                counts["rows_unlabelled"] += 1
                continue
            try:
                s = float(r[sc])
            except (TypeError, ValueError):
                s = float("nan")
            if (st and r[st].strip() not in ("ok", "")) or not math.isfinite(s):
                counts["rows_failed"] += 1
                continue
            if name not in best or s < best[name]:
                best[name] = s
    names = list(label)
    missing = [n for n in names if n not in best]
    scores = [best.get(n, math.inf) for n in names]
    actives = [label[n] for n in names]
    out = metrics(scores, actives)
    out.update(counts)
    out.update({"molecules": len(names), "actives": sum(actives),
                "decoys": len(names) - sum(actives), "unscored": len(missing),
                "unscored_actives": sum(label[n] for n in missing), "unscored_names": missing})
    return out


def self_test():
    ok = True

    def check(what, got, want, tol=1e-9):
        nonlocal ok
        good = abs(got - want) <= tol
        ok &= good
        print("%-40s %12.6f  expected %12.6f  %s" % (what, got, want, "ok" if good else "FAIL"))

    # Hand case: actives a1 = -10, a2 = -8; decoys -9, -7, -6 (lower = better).
    # ROC: (0,0) (0,.5) (1/3,.5) (1/3,1) (1,1). AUC: a1 beats 3 decoys, a2 beats 2: 5/6.
    # logAUC: [0.5 log10(1/3 / 0.001) + 1 log10(3)] / 3 = 0.579520; EF at 20% (n = 1): the
    # top one is active: (1/1) / (2/5) = 2.5; at 40% (n = 2): (1/2) / (2/5) = 1.25.
    s, a = [-10, -9, -8, -7, -6], [1, 0, 1, 0, 0]
    pts = roc_points(s, a)
    check("hand case AUC", auc(pts), 5 / 6)
    check("hand case logAUC", log_auc(pts), (0.5 * math.log10(1000 / 3) + math.log10(3)) / 3)
    check("hand case EF20%", enrichment_factor(s, a, 0.2)[0], 2.5)
    check("hand case EF40%", enrichment_factor(s, a, 0.4)[0], 1.25)
    # Ties: one active, one decoy, same score: AUC 1/2; EF50% (n = 1): half an active, /(1/2) = 1.
    check("tie AUC", auc(roc_points([-5, -5], [1, 0])), 0.5)
    check("tie EF50%", enrichment_factor([-5, -5], [1, 0], 0.5)[0], 1.0)
    # Perfect and reversed rankings; every score tied (random): adjusted logAUC 0.
    s, a = list(range(10)), [1, 1] + [0] * 8
    check("perfect AUC", auc(roc_points(s, a)), 1.0)
    check("perfect adjusted logAUC %", metrics(s, a)["adjusted_logauc"], 100 * (1 - LOG_RANDOM))
    check("reversed AUC", auc(roc_points(s[::-1], a)), 0.0)
    check("all tied adjusted logAUC %", metrics([0] * 10, a)["adjusted_logauc"], 0.0, 1e-9)
    check("random classifier logAUC", LOG_RANDOM, 0.144620, 5e-7)
    return ok


def main(argv):
    if "--self-test" in argv:
        return 0 if self_test() else 1
    args, opts = [], {}
    i = 0
    while i < len(argv):
        if argv[i].startswith("--"):
            opts[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 2:
        sys.exit(__doc__)
    m = evaluate(args[0], args[1], opts.get("name-col"), opts.get("score-col"),
                 opts.get("status-col"))
    tag = opts.get("label", args[0])
    print("%s: %d molecules (%d actives, %d decoys) from %d rows (%d failed, %d not in labels); "
          "%d molecules without a valid score rank last (%d actives)%s"
          % (tag, m["molecules"], m["actives"], m["decoys"], m["rows"], m["rows_failed"],
             m["rows_unlabelled"], m["unscored"], m["unscored_actives"],
             (": " + " ".join(m["unscored_names"][:20]) + (" ..." if m["unscored"] > 20 else ""))
             if m["unscored"] else ""))
    print("%s: AUC %.3f  EF1%% %.2f (top %d)  EF5%% %.2f (top %d)  logAUC %.1f%%  adjusted logAUC %.1f%%"
          % (tag, m["auc"], m["ef1"], m["ef1_n"], m["ef5"], m["ef5_n"], m["logauc"],
             m["adjusted_logauc"]))
    if "json" in opts:
        with open(opts["json"], "w") as f:
            json.dump(m, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
