"""The OneFlow port against what its source states (no test of the middle nodes was found in the stored
repository): lazy boxing refuses S->P; the same nd-sbp needs no boxing; (B, B) reaches every other nd-sbp,
since middle nodes compare with "<=" ("Using '<' would give no middle nodes from (B, B) to any other nd sbp");
hierarchies of 3 dims have no boxing; every plan it gives changes, between consecutive nd-sbps, only what
ComputCopyCostBetweenTwoNdSbp prices (one dim, or the reduced hierarchy's). Returns failures."""
from . import oneflow as of

S0, S1 = ("S", 0), ("S", 1)


def check():
    fails = []
    if of.plan_states([4], (8, 8), (S0,), ("P",)) is not None:
        fails.append("1-D S(0) -> P must have no plan (lazy boxing: no S->P)")
    if of.plan_states([2, 2], (8, 8), (S0, S1), (S0, S1)) != [(S0, S1)]:
        fails.append("the same nd-sbp must need no boxing")
    for dst in [(a, b) for a in ("B", S0, S1) for b in ("B", S0, S1)]:
        if dst != ("B", "B") and of.plan_states([2, 2], (8, 8), ("B", "B"), dst) is None:
            fails.append("(B, B) -> %s has no plan" % (dst,))
    if of.plan_states([2, 2, 2], (8, 8), ("B", "B", "B"), (S0, S0, S0)) is not None:
        fails.append("a 3-D hierarchy must have no boxing")
    for src in [("P", S0), (S0, S1), ("P", "P")]:
        for dst in [("B", "B"), (S1, S0), (S0, "B")]:
            plan = of.plan_states([2, 4], (8, 8), src, dst)
            if plan is None:
                continue
            for a, b in zip(plan, plan[1:]):
                if of.lazy_copy_cost(a, b, (8, 8), 4, [2, 4]) > of.valid_max():
                    fails.append("%s -> %s passes %s -> %s, which OneFlow cannot box" % (src, dst, a, b))
    return fails


if __name__ == "__main__":
    import sys
    f = check()
    print("\n".join(f) or "oneflow port: every stated rule holds")
    sys.exit(1 if f else 0)
