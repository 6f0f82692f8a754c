//===- print_era.cpp - printing a program in another printer era ----------===//
#include "core/print_era.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/attr_access.h"
#include "core/context.h"
#include "core/printer.h"

namespace pir::core {

namespace {

/// How the tagged (2024) era spells an attribute's value.
enum class Spell : uint8_t { Int32, Int64, Float, Double, DataType, Place, IntArray, Int32s, Int64s };

struct Spelling {
  std::string_view op;  // empty: any op
  std::string_view key;
  Spell spell;
};

// The types of the attributes in Paddle's op definitions (paddle/phi/ops/
// yaml/ops.yaml, backward.yaml; int -> Int32, int64_t -> Int64, float ->
// Float, double -> Double, int[] -> Int32s, int64_t[] -> Int64s) as the
// March 2024 printer tagged them (full's value was a float then). Per-op
// entries come first: they win over the any-op ones. A bare number none of
// these name cannot be tagged: an error, not a guess.
constexpr Spelling kSpellings[] = {
    {"pd_op.mean", "axis", Spell::IntArray},
    {"pd_op.mean_grad", "axis", Spell::IntArray},
    {"pd_op.sum", "axis", Spell::IntArray},
    {"pd_op.sum_grad", "axis", Spell::IntArray},
    {"pd_op.max", "axis", Spell::IntArray},
    {"pd_op.min", "axis", Spell::IntArray},
    {"pd_op.squeeze", "axis", Spell::IntArray},
    {"pd_op.unsqueeze", "axis", Spell::IntArray},
    {"pd_op.full_int_array", "value", Spell::Int64s},
    {"pd_op.slice", "axes", Spell::Int64s},
    {"pd_op.slice", "decrease_axis", Spell::Int64s},
    {"pd_op.slice", "infer_flags", Spell::Int64s},
    {"pd_op.transpose", "perm", Spell::Int32s},
    {"pd_op.conv2d", "strides", Spell::Int32s},
    {"pd_op.conv2d", "paddings", Spell::Int32s},
    {"pd_op.conv2d", "dilations", Spell::Int32s},
    {"pd_op.pool2d", "strides", Spell::Int32s},
    {"pd_op.pool2d", "paddings", Spell::Int32s},
    {"pd_op.pool2d", "kernel_size", Spell::IntArray},
    {"pd_op.fetch", "col", Spell::Int32},
    {"cinn_op.broadcast", "broadcast_axes", Spell::Int64s},
    {"cinn_op.broadcast", "out_shape", Spell::Int64s},
    {"", "dim", Spell::Int64s},  // cinn_op.reduce_*
    {"", "dtype", Spell::DataType},
    {"", "place", Spell::Place},
    {"", "shape", Spell::IntArray},
    {"", "axis", Spell::Int32},
    {"", "value", Spell::Float},
    {"", "bias", Spell::Float},
    {"", "scale", Spell::Float},
    {"", "epsilon", Spell::Float},
    {"", "min", Spell::Float},
    {"", "max", Spell::Float},
    {"", "negative_slope", Spell::Float},
    {"", "op_role", Spell::Int32},
    {"", "chunk_id", Spell::Int32},
    {"", "ring_id", Spell::Int32},
    {"", "peer", Spell::Int32},
    {"", "nranks", Spell::Int32},
    {"", "root", Spell::Int32},
    {"", "reduce_type", Spell::Int32},
    {"", "seed", Spell::Int32},
    {"", "groups", Spell::Int32},
    {"", "begin_norm_axis", Spell::Int32},
    {"", "start_axis", Spell::Int32},
    {"", "stop_axis", Spell::Int32},
    {"", "first_n", Spell::Int32},
    {"", "summarize", Spell::Int32},
    {"", "index", Spell::Int32},
    {"", "num", Spell::Int32},
};

std::optional<Spell> spellingOf(std::string_view op, std::string_view key) {
  for (const Spelling& s : kSpellings)
    if (s.key == key && (s.op.empty() || s.op == op)) return s.spell;
  return std::nullopt;
}

std::string_view numberTag(Spell s) {
  switch (s) {
    case Spell::Int32:
    case Spell::Int32s:
      return "Int32";
    case Spell::Int64:
    case Spell::Int64s:
      return "Int64";
    case Spell::Float:
      return "Float";
    case Spell::Double:
      return "Double";
    default:
      return {};
  }
}

/// Whether a bare number is left where the tagged era tags every number
/// (an IntArray's elements are bare in every era).
bool hasBareNumber(const Attribute* a) {
  if (auto* n = a->dynCast<NumberAttr>()) return n->tag().empty();
  if (auto* t = a->dynCast<TaggedAttr>()) return t->tag() != kIntArrayTag && hasBareNumber(t->inner());
  if (auto* arr = a->dynCast<ArrayAttr>()) {
    for (const Attribute* e : arr->elements())
      if (hasBareNumber(e)) return true;
  }
  return false;
}

bool isPlainTensor(std::string_view spelling) {
  return spelling == "builtin.tensor" || spelling == "pd_op.tensor" || spelling == "tensor";
}

/// The mesh a dims_maping-era reader gives a type printed with its shape
/// only: `hint`'s when the shapes agree, else ids 0..n-1 (no dim names).
bool readsBackAs(const ProcessMesh* mesh, const ProcessMesh* hint) {
  if (hint && std::equal(hint->shape().begin(), hint->shape().end(), mesh->shape().begin(), mesh->shape().end()))
    return mesh == hint;
  std::span<const int64_t> ids = mesh->processIds();
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] != static_cast<int64_t>(i)) return false;
  return mesh->dimNames().empty();
}

bool typeReadsBack(const Type* t, const ProcessMesh* hint) {
  if (!t) return true;
  if (auto* d = t->dynCast<DistTensorType>()) return readsBackAs(d->distAttr()->mesh(), hint);
  if (auto* v = t->dynCast<VectorType>()) {
    for (const Type* e : v->elements())
      if (!typeReadsBack(e, hint)) return false;
  }
  return true;
}

class EraConverter {
 public:
  EraConverter(Program& program, PrintEra era)
      : program_(program), ctx_(program.context()), tagged_(era == PrintEra::Y2024) {}

  Status run() {
    if (Status s = convertBlock(program_.body()); !s) return s;
    PrintStyle& style = program_.style();
    style.distEra = tagged_ ? DistEra::DimsMaping : DistEra::Full;
    style.taggedNumbers = tagged_;
    style.opDistChunkId = !tagged_;
    style.tensorSpelling = tagged_ ? "builtin.tensor" : "tensor";
    return Status::ok();
  }

 private:
  Status convertBlock(Block& block) {
    // A block argument has no line of its own: its errors stand at the
    // block's op (a program's kwargs: at its first op).
    const Operation* parent = block.parentOp();
    std::string_view owner = parent ? parent->name() : std::string_view();
    int64_t loc = parent ? parent->location() : block.front() ? block.front()->location() : -1;
    for (std::span<BlockArgument* const> args : {block.arguments(), block.kwargs()})
      for (BlockArgument* arg : args) {
        if (tagged_ && !typeReadsBack(arg->type(), nullptr))
          return Status::error(
              "block argument " +
                  (arg->kind() == ValueKind::Kwarg ? "%kwarg_" + std::string(arg->name())
                                                   : "%arg_" + std::to_string(arg->index())) +
                  " has a dist type on a mesh other than process ids 0..n-1, which the 2024 era cannot print (its "
                  "types print mesh_shape only)",
              loc);
        arg->setType(type(arg->type()));
        auto attrs = convertList(arg->attributes(), owner, loc);
        if (!attrs) return attrs.takeStatus();
        arg->setAttributes(ctx_.arena(), *attrs);
      }
    for (Operation& op : block) {
      if (Status s = convertOp(op); !s) return s;
      for (uint32_t r = 0; r < op.numRegions(); ++r)
        for (Block* b : op.region(r).blocks())
          if (Status s = convertBlock(*b); !s) return s;
    }
    return Status::ok();
  }

  Status convertOp(Operation& op) {
    const OpDistAttr* od = op.distAttr();
    for (uint32_t i = 0; i < op.numResults(); ++i) {
      if (tagged_ && !typeReadsBack(op.result(i)->type(), od ? od->mesh() : nullptr))
        return Status::error("op '" + std::string(op.name()) + "': result " + std::to_string(i) +
                                 " has a dist type on another mesh than its op's, which the 2024 era cannot print "
                                 "(its types print mesh_shape only)",
                             op.location());
      op.result(i)->setType(type(op.result(i)->type()));
    }
    auto attrs = convertList(op.attributes(), op.name(), op.location());
    if (!attrs) return attrs.takeStatus();
    if (!std::equal(attrs->begin(), attrs->end(), op.attributes().begin(), op.attributes().end(),
                    [](const NamedAttr& a, const NamedAttr& b) { return a.key == b.key && a.value == b.value; }))
      op.setAttributes(ctx_, *attrs);
    return Status::ok();
  }

  Result<std::vector<NamedAttr>> convertList(std::span<const NamedAttr> attrs, std::string_view op, int64_t loc) {
    std::vector<NamedAttr> out(attrs.begin(), attrs.end());
    for (NamedAttr& a : out) {
      auto value = convert(a.value, op, a.key, loc);
      if (!value) return value.takeStatus();
      a.value = *value;
    }
    return out;
  }

  Result<const Attribute*> convert(const Attribute* a, std::string_view op, std::string_view key, int64_t loc) {
    if (!a) return a;
    if (auto* od = a->dynCast<OpDistAttr>()) return opDist(od, op, loc);
    if (!tagged_) return strip(a);
    if (std::optional<Spell> s = spellingOf(op, key)) a = withTag(a, *s);
    if (hasBareNumber(a))
      return Status::error("op '" + std::string(op) + "': attribute '" + std::string(key) + "' is `" +
                               attributeToString(a) +
                               "`, and the 2024 era tags every number; the op definitions known here do not say "
                               "which tag it takes",
                           loc);
    return a;
  }

  Result<const Attribute*> opDist(const OpDistAttr* od, std::string_view op, int64_t loc) {
    if (!tagged_)
      return od->hasChunkId() ? od : ctx_.opDistAttr(od->mesh(), od->operands(), od->results(), od->chunkId(), true);
    if (od->hasChunkId() && od->chunkId() != -1)
      return Status::error("op '" + std::string(op) + "' has chunk_id " + std::to_string(od->chunkId()) +
                               ", which the 2024 era cannot print (its op_dist_attr has no chunk_id)",
                           loc);
    return od->hasChunkId() ? ctx_.opDistAttr(od->mesh(), od->operands(), od->results(), -1, false) : od;
  }

  /// The newest era's value: no number tags, no dialect tags, no `(Array)`.
  const Attribute* strip(const Attribute* a) {
    auto [it, fresh] = stripped_.try_emplace(a, a);
    if (!fresh) return it->second;
    const Attribute* out = a;
    if (auto* n = a->dynCast<NumberAttr>(); n && !n->tag().empty()) {
      out = ctx_.numberAttr({}, n->text());
    } else if (auto* t = a->dynCast<TaggedAttr>()) {
      out = strip(t->inner());
    } else if (auto* arr = a->dynCast<ArrayAttr>()) {
      std::vector<const Attribute*> elems;
      for (const Attribute* e : arr->elements()) elems.push_back(strip(e));
      out = ctx_.arrayAttr(elems);
    } else if (auto* ty = a->dynCast<TypeAttr>()) {
      out = ctx_.typeAttr(type(ty->type()));
    }
    stripped_[a] = out;
    return out;
  }

  const Attribute* withTag(const Attribute* a, Spell s) {
    switch (s) {
      case Spell::Int32:
      case Spell::Int64:
      case Spell::Float:
      case Spell::Double:
        if (auto* n = a->dynCast<NumberAttr>(); n && n->tag().empty()) return ctx_.numberAttr(numberTag(s), n->text());
        return a;
      case Spell::DataType:
      case Spell::Place:
        if (a->isa<SymbolAttr>() || a->isa<OpaqueAttr>())
          return ctx_.taggedAttr(s == Spell::DataType ? kDataTypeTag : kPlaceTag, a);
        return a;
      case Spell::IntArray:
        return a->isa<ArrayAttr>() ? ctx_.taggedAttr(kIntArrayTag, a) : a;
      case Spell::Int32s:
      case Spell::Int64s:
        if (auto* arr = a->dynCast<ArrayAttr>()) {
          std::vector<const Attribute*> elems;
          for (const Attribute* e : arr->elements())
            elems.push_back(withTag(e, s == Spell::Int32s ? Spell::Int32 : Spell::Int64));
          return ctx_.arrayAttr(elems, arr->hasArrayPrefix());
        }
        return a;
    }
    return a;
  }

  /// A dense tensor in the era's spelling (`tensor<..>` or `builtin.tensor<..>`).
  const Type* type(const Type* t) {
    if (!t) return t;
    auto [it, fresh] = types_.try_emplace(t, t);
    if (!fresh) return it->second;
    const Type* out = t;
    if (auto* d = t->dynCast<DenseTensorType>(); d && isPlainTensor(d->spelling())) {
      out = ctx_.denseTensorType(tagged_ ? "builtin.tensor" : "tensor", d->dtype(), d->dims());
    } else if (auto* v = t->dynCast<VectorType>()) {
      std::vector<const Type*> elems;
      for (const Type* e : v->elements()) elems.push_back(type(e));
      out = ctx_.vectorType(elems);
    }
    types_[t] = out;
    return out;
  }

  Program& program_;
  Context& ctx_;
  bool tagged_;
  std::unordered_map<const Attribute*, const Attribute*> stripped_;
  std::unordered_map<const Type*, const Type*> types_;
};

}  // namespace

std::optional<PrintEra> parsePrintEra(std::string_view name) {
  if (name == "input") return PrintEra::Input;
  if (name == "2024") return PrintEra::Y2024;
  if (name == "newest") return PrintEra::Newest;
  return std::nullopt;
}

Status convertToEra(Program& program, PrintEra era) {
  if (era == PrintEra::Input) return Status::ok();
  return EraConverter(program, era).run();
}

Status prepareToPrint(Program& program, PrintEra era, unsigned threads) {
  if (Status s = convertToEra(program, era); !s) return s;
  return checkPrintable(program, threads);
}

}  // namespace pir::core
