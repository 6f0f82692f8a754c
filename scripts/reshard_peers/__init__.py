"""Ports of other systems' reshard planners, for scripts/reshard-table (issue 31).

Each module ports its planner function by function from the named upstream commit (read through the
project's source search; torch 1.13 here has no DTensor), keeping upstream's names, and returns a plan as a
list of states: placements per mesh dim, each ("R",), ("P", reduce) or ("S", tensor_dim). The table lowers
each transition of such a plan with our byte model (`pir-opt explain-reshard --path`), so every planner is
priced by what the runtime would move.
"""
