//===- op_table.cpp - asking the op table ---------------------------------===//
#include "core/op_table.h"

#include <string>

#include "core/operation.h"
#include "core/value.h"

namespace pir::core {

const OpInfo* lookupRunOp(const Operation& op) {
  if (const OpInfo* own = lookupOp(op)) return own;
  std::string_view name = op.name();
  if (!name.ends_with("(phi_kernel)") && !name.ends_with("(legacy_kernel)")) return nullptr;
  auto* opName = op.attrOf<StringAttr>("op_name");
  return opName ? lookupOp(opName->value()) : nullptr;
}

uint32_t OpInfo::index() const { return static_cast<uint32_t>(this - opTable().data()); }

namespace {
constexpr std::string_view kGenericAttributes[] = {
    "chunk_id",      "execution_stream", "op_dist_attr", "op_role", "persistable", "replace_all_uses_with_reshard_var",
    "stop_gradient", "struct_name"};
}  // namespace

std::span<const std::string_view> genericAttributes() { return kGenericAttributes; }

bool OpInfo::mayPrintAttribute(std::string_view key, uint32_t numOperands) const {
  if (!attributesRecorded()) return true;
  for (std::string_view a : attributes)
    if (a == key) return true;
  for (std::string_view a : kGenericAttributes)
    if (a == key) return true;
  auto pastOperands = [&](const OpLayout& l) {
    if (l.variadicOperands) return false;
    for (size_t i = numOperands; i < l.operands.size(); ++i)
      if (l.operands[i] == key) return true;
    return false;
  };
  if (pastOperands(layout)) return true;
  for (const OpLayout& l : olderLayouts)
    if (pastOperands(l)) return true;
  return false;
}

const OpLayout* OpInfo::layoutFor(uint32_t numOperands) const {
  if (olderLayouts.empty()) return &layout;
  if (layout.operands.size() == numOperands) return &layout;
  for (const OpLayout& l : olderLayouts)
    if (l.operands.size() == numOperands) return &l;
  return nullptr;
}

std::span<const InplacePair> OpInfo::inplacePairs(uint32_t numOperands) const {
  const OpLayout* l = layoutFor(numOperands);
  return l ? l->inplace : std::span<const InplacePair>();
}

bool OpInfo::writesInPlace() const {
  if (!layout.inplace.empty()) return true;
  for (const OpLayout& l : olderLayouts)
    if (!l.inplace.empty()) return true;
  return false;
}

int OpInfo::operandIndex(std::string_view operand, uint32_t numOperands) const {
  const OpLayout* l = layoutFor(numOperands);
  if (!l) return -1;
  for (size_t i = 0; i < l->operands.size(); ++i)
    if (l->operands[i] == operand) return i < numOperands ? static_cast<int>(i) : -1;  // an op short of it has none
  return -1;
}

std::string_view OpInfo::operandName(uint32_t i, uint32_t numOperands) const {
  const OpLayout* l = layoutFor(numOperands);
  if (!l || l->operands.empty()) return {};
  if (i < l->operands.size()) return l->operands[i];
  return l->variadicOperands ? l->operands.back() : std::string_view();
}

Linearity linearityOf(const Operation& op, uint32_t operand) {
  const OpInfo* info = lookupOp(op);
  const OpLayout* l = info ? info->layoutFor(op.numOperands()) : nullptr;
  if (!l || operand >= op.numOperands()) return Linearity::Unknown;
  size_t place = operand;
  if (place >= l->operands.size()) {
    if (!l->variadicOperands) return Linearity::Unknown;  // more operands than Paddle's signature
    place = l->operands.size() - 1;
  }
  if (info->linearWhen && !info->linearWhen(op)) return Linearity::NotLinear;
  return (l->linear >> place) & 1 ? Linearity::Linear : Linearity::NotLinear;
}

const Attribute* ResultTypeQuery::attr(std::string_view key) const {
  for (const NamedAttr& a : attrs)
    if (a.key == key) return a.value;
  return nullptr;
}

Result<std::vector<ValueSpec>> inferResultTypes(const OpInfo& info, std::span<const ValueSpec> operands,
                                                std::span<const NamedAttr> attrs) {
  if (!info.resultTypes)
    return Status::error("the op table has no result-type function for '" + std::string(info.name) + "'");
  auto specs = info.resultTypes(ResultTypeQuery{operands, attrs});
  if (!specs) return specs.status().withMessage(std::string(info.name) + ": " + specs.status().message());
  return specs;
}

Result<ValueSpec> operandSpec(const Value* v) {
  ValueSpec spec;
  if (!v) return spec;
  spec.definingOp = v->definingOp();
  const Type* t = v->type();
  if (!t || t->isa<NullType>()) return spec;
  if (auto s = tensorShape(t)) {
    spec.tensors.push_back({s->dtype, {s->dims.begin(), s->dims.end()}});
    return spec;
  }
  if (auto* vec = t->dynCast<VectorType>()) {
    spec.isList = true;
    for (const Type* e : vec->elements()) {
      auto s = tensorShape(e);
      if (!s) return Status::error("an element of a vec[..] operand is not a tensor");
      spec.tensors.push_back({s->dtype, {s->dims.begin(), s->dims.end()}});
    }
    return spec;
  }
  return Status::error("an operand's type is neither a tensor nor a vec[..] of tensors");
}

Result<std::vector<ValueSpec>> inferResultTypes(const Operation& op) {
  const OpInfo* info = lookupOp(op);
  if (!info) return Status::error("the op table has no entry for '" + std::string(op.name()) + "'");
  std::vector<ValueSpec> operands;
  operands.reserve(op.numOperands());
  for (uint32_t i = 0; i < op.numOperands(); ++i) {
    auto s = operandSpec(op.operandValue(i));
    if (!s) return s.takeStatus();
    operands.push_back(std::move(*s));
  }
  return inferResultTypes(*info, operands, op.attributes());
}

OptimizerOperands optimizerOperands(const Operation& op) {
  const OpInfo* info = lookupOp(op);
  if (!info) return {};
  if (info->operandIndex("param") < 0 || info->operandIndex("grad") < 0) return {};  // most ops: one search
  return {info->operandIndex("param", op.numOperands()), info->operandIndex("grad", op.numOperands()), true};
}

}  // namespace pir::core
