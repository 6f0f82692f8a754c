"""PyTorch DTensor's redistribute planners, ported.

Sources (pytorch/pytorch):
- torch/distributed/tensor/_redistribute.py @ 012e4b96872f3dac8c522c60aab6c8109c613d3b:
  DTensorRedistributePlanner.get_next_state, find_min_cost_path, get_logical_shape,
  generate_graph_based_transform_infos, generate_greedy_transform_infos, stringify_transform_infos.
- torch/distributed/tensor/_collective_utils.py: MeshTopoInfo.build_from_mesh, allgather_cost,
  allreduce_cost, reduce_scatter_cost (@ 01d4728a564cd24d82e42f53f8cc3733060cd1fa), and
  one_step_redistribute_cost / _compute_placement_transition_cost, which the stored versions of that
  file predate; read from an undated excerpt of the version _redistribute.py @ 012e4b96 imports.
- torch/distributed/tensor/_dtensor_spec.py: compute_default_shard_order, format_shard_order_str.

What is left out: _StridedShard and _MaskPartial (no counterpart in a dims_mapping), tracing, caching and the
execution of the plan (redistribute_local_tensor): the table prices a plan with our byte model.
A placement is ("R",), ("P", op) or ("S", dim); a shard order is a tuple of (tensor_dim, mesh_dims) entries.
"""
import heapq
import itertools
from collections import defaultdict

R = ("R",)


def S(d):
    return ("S", d)


def P(op="sum"):
    return ("P", op)


def is_shard(p, dim=None):
    return p[0] == "S" and (dim is None or p[1] == dim)


def is_partial(p):
    return p[0] == "P"


def is_replicate(p):
    return p[0] == "R"


def placement_str(p):
    if p[0] == "S":
        return "S(%d)" % p[1]
    return "P(%s)" % p[1] if p[0] == "P" else "R"


class Mesh:
    """DeviceMesh's sizes; `devices_per_host` stands for _mesh_resources.num_devices_per_host."""

    def __init__(self, shape, devices_per_host=None):
        self.shape = tuple(shape)
        self.ndim = len(shape)
        n = 1
        for s in shape:
            n *= s
        self.devices_per_host = devices_per_host or n

    def size(self, mesh_dim):
        return self.shape[mesh_dim]


def compute_default_shard_order(placements):
    """_dtensor_spec.py: each sharded tensor dim with its mesh dims in increasing order."""
    order = defaultdict(list)
    for mesh_dim, p in enumerate(placements):
        if is_shard(p):
            order[p[1]].append(mesh_dim)
    return tuple((d, tuple(order[d])) for d in sorted(order))


def is_default_device_order(shard_order):
    return all(all(a < b for a, b in zip(m, m[1:])) for _, m in shard_order)


def format_shard_order_str(placements, shard_order=None):
    result = ""
    for mesh_dim, placement in enumerate(placements):
        if is_shard(placement) and shard_order is not None:
            for tensor_dim, mesh_dims in shard_order:
                if placement[1] != tensor_dim:
                    continue
                assert mesh_dim in mesh_dims
                if len(mesh_dims) > 1:
                    result += "%s[%d]" % (placement_str(placement), mesh_dims.index(mesh_dim))
                else:
                    result += placement_str(placement)
                break
        else:
            result += placement_str(placement)
    return result


# _collective_utils.py


class MeshTopoInfo:
    def __init__(self, mesh):
        base_bw = 87.7
        self.mesh_dim_bandwidth = [base_bw] * mesh.ndim
        self.mesh_dim_latency = [0.6] * mesh.ndim
        self.mesh_dim_devices = [1] * mesh.ndim
        total = 1
        for mesh_dim in reversed(range(mesh.ndim)):
            num_devices = mesh.size(mesh_dim)
            self.mesh_dim_devices[mesh_dim] = num_devices
            total *= num_devices
            if total > mesh.devices_per_host:
                self.mesh_dim_bandwidth[mesh_dim] *= 0.22
                self.mesh_dim_latency[mesh_dim] = 2.7


def allgather_cost(bytes_gb, topo, mesh_dim):
    n = topo.mesh_dim_devices[mesh_dim]
    hops = n - 1
    latency = 6.6 + hops * topo.mesh_dim_latency[mesh_dim]
    bw = (bytes_gb * hops / n) / topo.mesh_dim_bandwidth[mesh_dim]
    return latency + bw * 1e6


def allreduce_cost(bytes_gb, topo, mesh_dim):
    n = topo.mesh_dim_devices[mesh_dim]
    hops = 2 * (n - 1)
    latency = 6.6 + hops * topo.mesh_dim_latency[mesh_dim]
    bw = (bytes_gb * hops / n) / topo.mesh_dim_bandwidth[mesh_dim]
    return latency + bw * 1e6


def reduce_scatter_cost(bytes_gb, topo, mesh_dim):
    n = topo.mesh_dim_devices[mesh_dim]
    hops = n - 1
    latency = 6.6 + hops * topo.mesh_dim_latency[mesh_dim]
    bw = (bytes_gb * hops / n) / topo.mesh_dim_bandwidth[mesh_dim]
    return latency + bw * 1e6


def _compute_placement_transition_cost(current, target, topo, mesh_dim, comm_bytes_gb):
    if current == target:
        return 0.0, comm_bytes_gb
    n = topo.mesh_dim_devices[mesh_dim]
    if is_shard(current) and is_replicate(target):
        comm_bytes_gb *= n
        return allgather_cost(comm_bytes_gb, topo, mesh_dim), comm_bytes_gb
    if is_shard(current) and is_shard(target):
        return allgather_cost(comm_bytes_gb, topo, mesh_dim) + 1.0, comm_bytes_gb
    if is_partial(current) and is_replicate(target):
        return allreduce_cost(comm_bytes_gb, topo, mesh_dim), comm_bytes_gb
    if is_partial(current) and is_shard(target):
        cost = reduce_scatter_cost(comm_bytes_gb, topo, mesh_dim)
        comm_bytes_gb /= n
        return cost, comm_bytes_gb
    if is_shard(current) and is_partial(target):
        return float("inf"), comm_bytes_gb
    if is_partial(current) and is_partial(target):
        return float("inf"), comm_bytes_gb
    if is_replicate(current) and is_shard(target):
        comm_bytes_gb /= n
        return 0.0, comm_bytes_gb
    return 0.0, comm_bytes_gb


def num_shards(mesh, placements):
    n = 1
    for i, p in enumerate(placements):
        if is_shard(p):
            n *= mesh.size(i)
    return n


def one_step_redistribute_cost(mesh, shape, elem_bytes, current, target):
    """current, target: placements differing on at most one mesh dim."""
    if current == target:
        return 0.0
    mesh_dim = -1
    for i, (cur, tgt) in enumerate(zip(current, target)):
        if cur != tgt:
            if mesh_dim != -1:
                raise ValueError("one_step_redistribute_cost expects specs that differ by exactly one placement")
            mesh_dim, cur_p, tgt_p = i, cur, tgt
    if mesh_dim == -1:
        return 0.0
    topo = MeshTopoInfo(mesh)
    numel = 1
    for s in shape:
        numel *= s
    comm_bytes_gb = numel * elem_bytes / num_shards(mesh, current) / 1024 / 1024 / 1024
    return _compute_placement_transition_cost(cur_p, tgt_p, topo, mesh_dim, comm_bytes_gb)[0]


# _redistribute.py


def _to_dict(shard_order):
    d = defaultdict(list)
    for tensor_dim, mesh_dims in shard_order:
        d[tensor_dim] = list(mesh_dims)
    return d


def _to_order(d):
    return tuple((k, tuple(v)) for k, v in sorted(d.items()) if v)


class TransformInfo:
    __slots__ = ("mesh_dim", "src_dst_placements", "logical_shape")

    def __init__(self, mesh_dim, src_dst_placements, logical_shape):
        self.mesh_dim = mesh_dim
        self.src_dst_placements = src_dst_placements
        self.logical_shape = logical_shape


def stringify_transform_infos(mesh, transform_infos, src_placement, src_shard_order=None):
    if src_shard_order is None:
        src_shard_order = compute_default_shard_order(src_placement)
    cur = list(src_placement)
    order = _to_dict(src_shard_order)
    states = [format_shard_order_str(tuple(cur), src_shard_order)]
    for info in transform_infos:
        src_p, dst_p = info.src_dst_placements
        if is_shard(src_p):
            assert order.get(src_p[1])
            order[src_p[1]].pop()
        if is_shard(dst_p):
            order.setdefault(dst_p[1], []).append(info.mesh_dim)
        cur[info.mesh_dim] = dst_p
        states.append(format_shard_order_str(tuple(cur), _to_order(order)))
    return "->".join(states)


class DTensorRedistributePlanner:
    def __init__(self, mesh, shape, elem_bytes=4, coordinate=None):
        self.device_mesh = mesh
        self.shape = tuple(shape)
        self.tensor_dimension = len(shape)
        self.elem_bytes = elem_bytes
        self.coordinate = coordinate or [0] * mesh.ndim

    def cost_function(self, src_state, dst_state):
        return one_step_redistribute_cost(self.device_mesh, self.shape, self.elem_bytes, src_state[0], dst_state[0])

    def get_next_state(self, placements, tensor_mesh_dim_tuple):
        all_next_state = {}
        d = _to_dict(tensor_mesh_dim_tuple)
        cur = (tuple(placements), tensor_mesh_dim_tuple)
        # case 1: Shard(a) -> Shard(b), the last mesh dim sharding a
        for src_tensor_dim, _ in tensor_mesh_dim_tuple:
            for dst_tensor_dim in range(self.tensor_dimension):
                if src_tensor_dim == dst_tensor_dim:
                    continue
                move = d[src_tensor_dim].pop()
                d[dst_tensor_dim].append(move)
                new = list(placements)
                new[move] = S(dst_tensor_dim)
                state = (tuple(new), _to_order(d))
                all_next_state[state] = self.cost_function(cur, state)
                d[src_tensor_dim].append(move)
                d[dst_tensor_dim].pop()
        # case 2: Shard() -> Replicate()
        for src_tensor_dim, _ in tensor_mesh_dim_tuple:
            move = d[src_tensor_dim].pop()
            new = list(placements)
            new[move] = R
            state = (tuple(new), _to_order(d))
            d[src_tensor_dim].append(move)
            all_next_state[state] = self.cost_function(cur, state)
        # case 3: Partial() -> Replicate()
        for mesh_dim, p in enumerate(placements):
            if not is_partial(p):
                continue
            new = list(placements)
            new[mesh_dim] = R
            state = (tuple(new), tensor_mesh_dim_tuple)
            all_next_state[state] = self.cost_function(cur, state)
        # case 4: Replicate() -> Shard()
        for mesh_dim, p in enumerate(placements):
            if not is_replicate(p):
                continue
            for dst_tensor_dim in range(self.tensor_dimension):
                new = list(placements)
                new[mesh_dim] = S(dst_tensor_dim)
                d[dst_tensor_dim].append(mesh_dim)
                state = (tuple(new), _to_order(d))
                all_next_state[state] = self.cost_function(cur, state)
                d[dst_tensor_dim].pop()
        # case 5: Partial() -> Shard()
        for mesh_dim, p in enumerate(placements):
            if not is_partial(p):
                continue
            for dst_tensor_dim in range(self.tensor_dimension):
                new = list(placements)
                new[mesh_dim] = S(dst_tensor_dim)
                d[dst_tensor_dim].append(mesh_dim)
                state = (tuple(new), _to_order(d))
                all_next_state[state] = self.cost_function(cur, state)
                d[dst_tensor_dim].pop()
        # case 6: Replicate() -> Partial(), default to partial(sum)
        for mesh_dim, p in enumerate(placements):
            if not is_replicate(p):
                continue
            new = list(placements)
            new[mesh_dim] = P()
            state = (tuple(new), tensor_mesh_dim_tuple)
            all_next_state[state] = self.cost_function(cur, state)
        return all_next_state

    def find_min_cost_path(self, src_state, dst_state):
        counter = 0
        pq = [(0, counter, src_state, [src_state])]
        visited = set()
        while pq:
            cost, _, current, path = heapq.heappop(pq)
            if current == dst_state:
                return path
            if current in visited:
                continue
            visited.add(current)
            for nxt, c in self.get_next_state(current[0], current[1]).items():
                if nxt not in visited:
                    counter += 1
                    heapq.heappush(pq, (cost + c, counter, nxt, path + [nxt]))
        raise AssertionError("No path found from src_state %s to dst_state %s" % (src_state, dst_state))

    def get_logical_shape(self, src_state, mesh_dim, full_tensor_shape):
        shape = list(full_tensor_shape)
        for tensor_dim, mesh_dims in src_state[1]:
            for mdim in mesh_dims:
                if mdim == mesh_dim:
                    continue
                shape[tensor_dim] = local_shard_size(shape[tensor_dim], self.device_mesh.size(mdim),
                                                     self.coordinate[mdim])
        return shape

    def generate_graph_based_transform_infos(self, src, dst, full_tensor_shape):
        """src, dst: (placements, shard_order)."""
        infos = []
        path = self.find_min_cost_path(src, dst)
        for cur, nxt in zip(path, path[1:]):
            if cur[0] != nxt[0]:
                update = -1
                for mesh_dim, (a, b) in enumerate(zip(cur[0], nxt[0])):
                    if a != b:
                        assert update == -1, "Multiple mesh_dims are different between cur_state and nxt_state"
                        update = mesh_dim
                        infos.append(TransformInfo(mesh_dim, (a, b), self.get_logical_shape(cur, mesh_dim,
                                                                                            full_tensor_shape)))
        return infos

    def generate_greedy_transform_infos(self, src_placements, dst_placements):
        initial = list(self.shape)
        logical = [initial]
        infos = []
        if self.device_mesh.ndim == 1:
            return [TransformInfo(0, (src_placements[0], dst_placements[0]), initial)]
        for i, src in enumerate(src_placements):
            current = logical[i]
            if is_shard(src):
                if i < self.device_mesh.ndim - 1:
                    size = local_shard_size(current[src[1]], self.device_mesh.size(i), self.coordinate[i])
                    new = list(current)
                    new[src[1]] = size
                    logical.append(new)
            else:
                logical.append(current)
        current_placements = list(src_placements)
        target_placements = list(dst_placements)
        if num_shards(self.device_mesh, src_placements) > 1:
            for mesh_dim in reversed(range(len(current_placements))):
                current = current_placements[mesh_dim]
                target = target_placements[mesh_dim]
                if is_shard(target):
                    shard_dim = target[1]
                    cur_sharding, tgt_sharding = [], []
                    for i, (s, p) in enumerate(zip(current_placements, target_placements)):
                        if i >= mesh_dim:
                            break
                        if is_shard(s, shard_dim):
                            cur_sharding.append(i)
                        if is_shard(p, shard_dim):
                            tgt_sharding.append(i)
                    if cur_sharding != tgt_sharding:
                        target = R
                if current != target:
                    infos.append(TransformInfo(mesh_dim, (current, target), logical[mesh_dim]))
                    current_placements[mesh_dim] = target
        for mesh_dim, (current, target) in enumerate(zip(current_placements, target_placements)):
            if current != target:
                infos.append(TransformInfo(mesh_dim, (current, target), logical[mesh_dim]))
                current_placements[mesh_dim] = target
        return infos


def local_shard_size(size, num_chunks, rank):
    """Shard.local_shard_size_and_offset's size: torch.chunk's pieces."""
    full = (size + num_chunks - 1) // num_chunks
    return max(0, min(size, full * (rank + 1)) - full * rank)


def gen_transform_infos(mesh, shape, src, dst, graph=None, elem_bytes=4, src_order=None, dst_order=None):
    """_gen_transform_infos_non_cached: the graph planner for non-default shard orders (or when asked)."""
    src_order = src_order if src_order is not None else compute_default_shard_order(src)
    dst_order = dst_order if dst_order is not None else compute_default_shard_order(dst)
    planner = DTensorRedistributePlanner(mesh, shape, elem_bytes)
    if not (is_default_device_order(src_order) and is_default_device_order(dst_order)):
        graph = True
    if graph:
        return planner.generate_graph_based_transform_infos((tuple(src), src_order), (tuple(dst), dst_order), shape)
    return planner.generate_greedy_transform_infos(tuple(src), tuple(dst))


def plan_states(mesh, shape, src, dst, graph, elem_bytes=4):
    """The plan as the list of placements it passes through (src first)."""
    cur = list(src)
    states = [tuple(cur)]
    for info in gen_transform_infos(mesh, shape, src, dst, graph, elem_bytes):
        cur[info.mesh_dim] = info.src_dst_placements[1]
        states.append(tuple(cur))
    return states
