"""OneFlow's boxing with middle nodes, ported (same placement; 1-D and 2-D hierarchies).

Sources (Oneflow-Inc/oneflow @ 0076c1db4a007fbc44416507e2119972661d7606):
- oneflow/core/auto_parallel/boxing_collector.cpp: DfsSetNdSbp, BoxingCollector::CollectUniverse,
  GenerateNdSbpList, GenerateMap1d2nd, GenerateCombination4SamePlacement (the all-pairs table and its middle
  nodes, up to max_middle_node_num of them), AskSbpCombination4Same2DPlacement (the middle nodes with the
  least storage), Init(logical_blob_desc, parallel_desc) (the customized collector: FilterNdSbpList4LogicalShape
  and 5 middle nodes at most).
- oneflow/core/framework/sbp_infer_util.cpp: ComputCopyCostBetweenTwoSbpParallel,
  ComputCopyCostBetweenTwoDiffSbpParallel, ComputCopyCostBetweenTwoNdSbp, CollaborativeParallelDimReduce,
  ComputeLazyCopyCostBetweenNdSbp, Storage4NdSbp, Penalty4PartialInConsumer (default policy kMiddle),
  GetValidMaxCopyCost, GetTransferCost (1.65e8).

Left out: different placements and hierarchies (the diagonal-node path goes through a 1-D sbp over the
flattened mesh, (S0, S0), which a dims_mapping cannot hold), hierarchies of 3 or more dims (OneFlow refuses
them: "Boxing does not support a hierarchy with dimension greater than 2"), the CUDA-only general basic
communication, and eager mode. An sbp is "B", "P" or ("S", axis); a plan is the list of nd-sbps it passes.
"""
K_UNSUPPORTED = 3.4028234663852886e38  # GetMaxVal<float>()


def valid_max():
    return K_UNSUPPORTED * 0.8


TRANSFER_COST = 1.65e8


def is_split(s):
    return isinstance(s, tuple)


def penalty4partial_in_consumer(size, producer_num, consumer_num):
    return 4 * size * (producer_num + consumer_num)  # kMiddle, the default policy


def cost_two_sbp_same_devices(p, c, size, n):
    """ComputCopyCostBetweenTwoSbpParallel, producer_parallel_desc == consumer_parallel_desc, lazy mode."""
    if c == "P" and is_split(p):
        return K_UNSUPPORTED
    if p == c:
        return 0.0
    if c == "P":
        return penalty4partial_in_consumer(size, n, n)
    if p == "B":
        return 1.0
    if is_split(c) or is_split(p):
        if is_split(c) and is_split(p):
            return size * (n - 1) / n
        return size * (n - 1)
    return 2 * size * (n - 1)


def cost_two_diff_sbp(p, c, size, n):
    """ComputCopyCostBetweenTwoDiffSbpParallel, on_same_devices."""
    if c == "P" and is_split(p):
        return K_UNSUPPORTED
    if c == "P":
        return penalty4partial_in_consumer(size, n, n)
    if p == "B":
        return 1
    if is_split(c) or is_split(p):
        if is_split(c) and is_split(p):
            return size * (n - 1) / n
        return size * (n - 1)
    return 2 * size * (n - 1)


def all_same_split(nd):
    return is_split(nd[0]) and all(s == nd[0] for s in nd)


def cost_two_nd_sbp(p, c, size, hierarchy):
    """ComputCopyCostBetweenTwoNdSbp for a 2-D hierarchy."""
    if len(hierarchy) != 2:
        return K_UNSUPPORTED
    for dim_same in range(2):
        dp = 0 if len(p) == 1 else dim_same
        dc = 0 if len(c) == 1 else dim_same
        if p[dp] == c[dc]:
            if not is_split(p[dp]):
                size *= hierarchy[dim_same]
            dim_diff = 1 - dim_same
            if len(p) == 2:
                dp = dim_diff
            if len(c) == 2:
                dc = dim_diff
            if dim_diff == 0 and p[dp] != c[dc] and (all_same_split(p) or all_same_split(c)):
                return K_UNSUPPORTED
            return cost_two_diff_sbp(p[dp], c[dc], size, hierarchy[dim_diff])
    return K_UNSUPPORTED


def collaborative_dim_reduce(hierarchy, p, c):
    """CollaborativeParallelDimReduce: merge adjacent dims where both sbps repeat."""
    rh, rp, rc = [], [], []
    for i, h in enumerate(hierarchy):
        if h == 1:
            continue
        if not rp or p[i] != rp[-1] or c[i] != rc[-1]:
            rh.append(h)
            rp.append(p[i])
            rc.append(c[i])
        else:
            rh[-1] *= h
    if not rh:
        rh, rp, rc = [hierarchy[0]], [p[0]], [c[0]]
    return rh, tuple(rp), tuple(rc)


def lazy_copy_cost(p, c, shape, elem_bytes, hierarchy):
    """ComputeLazyCopyCostBetweenNdSbp on one placement."""
    rh, rp, rc = collaborative_dim_reduce(hierarchy, p, c)
    if len(rh) >= 3:
        return K_UNSUPPORTED
    if rp == rc:
        return 0.0
    size = elem_bytes
    for d in shape:
        size *= d
    n = 1
    for h in rh:
        n *= h
    if len(rh) == 1:
        return TRANSFER_COST + cost_two_sbp_same_devices(rp[0], rc[0], size, n)
    return TRANSFER_COST + cost_two_nd_sbp(rp, rc, size, rh)


def storage4nd_sbp(nd, shape, hierarchy):
    """Storage4NdSbp (the elements a device holds; unsupported when a split is not even)."""
    shape = list(shape)
    if len(nd) == 1:
        size = 1
        for d in shape:
            size *= d
        if is_split(nd[0]):
            axis = nd[0][1]
            if axis >= len(shape) or shape[axis] < hierarchy[0]:
                return K_UNSUPPORTED
            size /= hierarchy[0]
        return size
    for i, s in enumerate(nd):
        if is_split(s):
            axis = s[1]
            if axis >= len(shape) or shape[axis] <= 0 or shape[axis] % hierarchy[i] > 0:
                return K_UNSUPPORTED
            shape[axis] //= hierarchy[i]
    size = 1
    for d in shape:
        size *= d
    return size


class BoxingCollector:
    def __init__(self, shape, elem_bytes, hierarchy, max_middle_node_num, customized, max_axis):
        """Init(logical_blob_desc, parallel_desc) when customized (this tensor and mesh, shapes filtered);
        else Init(max_axis)'s same-placement part, called with a virtual [4w, 4w] mesh and blob."""
        self.universe = ["B"] + [("S", a) for a in range(max_axis)] + ["P"]  # CollectUniverse
        self.hierarchy = list(hierarchy)
        self.lists = [()]
        for _ in hierarchy:  # GenerateNdSbpList via DfsSetNdSbp
            self.lists = [x + (s,) for x in self.lists for s in self.universe]
        if customized:  # FilterNdSbpList4LogicalShape
            self.lists = [nd for nd in self.lists if storage4nd_sbp(nd, shape, hierarchy) <= valid_max()]
        self.index = {nd: i for i, nd in enumerate(self.lists)}
        self._same_placement(max_middle_node_num, shape, elem_bytes)

    def _same_placement(self, max_middle_node_num, shape, elem_bytes):
        """GenerateCombination4SamePlacement."""
        n = len(self.lists)
        cost = [[lazy_copy_cost(a, b, shape, elem_bytes, self.hierarchy) for b in self.lists] for a in self.lists]
        middle = [[[] for _ in range(n)] for _ in range(n)]

        def not_middle(i, j, k, num_ik):
            if k == j or k == i:
                return True
            if middle[k][j]:
                return True
            if num_ik:
                if not middle[i][k] or len(middle[i][k][0]) != num_ik:
                    return True
            elif middle[i][k]:
                return True
            return False

        for num in range(1, max_middle_node_num + 1):
            num_ik = num - 1
            for i in range(n):
                for j in range(n):
                    if cost[i][j] < valid_max():
                        continue
                    for k in range(n):
                        if not_middle(i, j, k, num_ik):
                            continue
                        cost[i][j] = min(cost[i][j], cost[i][k] + cost[k][j])
                    if cost[i][j] > valid_max():
                        continue
                    for k in range(n):
                        if not_middle(i, j, k, num_ik):
                            continue
                        if cost[i][k] + cost[k][j] <= cost[i][j] * 1.0000001:
                            if middle[i][k]:
                                for m in middle[i][k]:
                                    middle[i][j].append(m + [k])
                            else:
                                middle[i][j].append([k])
                    assert middle[i][j], "No middle nodes given from %s to %s" % (self.lists[i], self.lists[j])
        self.cost, self.middle = cost, middle

    def ask_same_2d(self, producer, consumer, shape, hierarchy):
        """AskSbpCombination4Same2DPlacement: the middle nd-sbps with the least storage on the real
        `hierarchy`, or None."""
        i, j = self.index.get(producer, -1), self.index.get(consumer, -1)
        if i < 0 or j < 0 or self.cost[i][j] > valid_max():
            return None
        if not self.middle[i][j]:
            return []
        best, best_cost = None, valid_max()
        for nodes in self.middle[i][j]:
            c = 0.0
            for k in nodes:
                c += storage4nd_sbp(self.lists[k], shape, hierarchy)
                if c > valid_max():
                    break
            if c < best_cost:
                best, best_cost = nodes, c
        return None if best is None else [self.lists[k] for k in best]


_COLLECTORS = {}


def collector(shape, elem_bytes, hierarchy, max_middle_node_num, customized, max_axis):
    """A BoxingCollector, made once per arguments (the table asks many rows of one mesh and tensor)."""
    key = (tuple(shape), elem_bytes, tuple(hierarchy), max_middle_node_num, customized, max_axis)
    if key not in _COLLECTORS:
        _COLLECTORS[key] = BoxingCollector(shape, elem_bytes, hierarchy, max_middle_node_num, customized, max_axis)
    return _COLLECTORS[key]


def plan_states(hierarchy, shape, src, dst, elem_bytes=4):
    """The nd-sbps a same-placement boxing passes (src first), or None where OneFlow has no plan (3-D
    hierarchies; a pair its table cannot reach)."""
    if src == dst:
        return [src]
    if len(hierarchy) == 1:
        c = lazy_copy_cost(src, dst, shape, elem_bytes, hierarchy)
        return None if c > valid_max() else [src, dst]
    if len(hierarchy) > 2:
        return None
    # The global collector (Init(max_axis): GenerateCombination4SamePlacement(3) over a virtual [4w, 4w]
    # mesh and a 6-D int8 blob of 16w^2 per dim), asked first; the customized one when it finds nothing.
    w = 1
    for h in hierarchy:
        w *= h
    axes = max(2, len(shape))
    virtual = collector((16 * w * w,) * 6, 1, [4 * w, 4 * w], 3, False, axes)
    nodes = virtual.ask_same_2d(src, dst, shape, hierarchy)
    if nodes is None:
        nodes = collector(shape, elem_bytes, hierarchy, 5, True, len(shape)).ask_same_2d(src, dst, shape, hierarchy)
    return None if nodes is None else [src] + nodes + [dst]
