//===- op_table_test.cpp - lookup, names, in-place pairs, linearity -------===//
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "core/builder.h"
#include "core/op_table.h"
#include "core/program.h"

using namespace pir::core;

namespace {

std::vector<std::pair<uint32_t, uint32_t>> pairs(std::span<const InplacePair> ps) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const InplacePair& p : ps) out.emplace_back(p.operand, p.result);
  return out;
}

const OpInfo& info(std::string_view name) {
  const OpInfo* i = lookupOp(name);
  REQUIRE(i != nullptr);
  return *i;
}

/// Ops built on values of one tensor type, with attributes.
struct OpMaker {
  Context ctx;
  Program prog{ctx};
  Builder b{ctx};
  const Type* t;
  OpMaker() {
    int64_t dims[] = {4};
    t = ctx.denseTensorType("builtin.tensor", DataType::F32, dims);
    b.setInsertionPointToEnd(prog.body());
  }
  Operation* make(std::string_view name, size_t numOperands, std::vector<NamedAttr> attrs = {}) {
    std::vector<Value*> ins;
    const Type* ts[] = {t};
    for (size_t i = 0; i < numOperands; ++i) ins.push_back(b.create("test.def", {}, ts)->result(0));
    for (NamedAttr& a : attrs) a.key = ctx.intern(a.key);
    return b.create(name, ins, ts, attrs);
  }
};

}  // namespace

TEST_CASE("every entry is found by its name, at its index", "[core][op_table]") {
  std::span<const OpInfo> all = opTable();
  REQUIRE(all.size() > 90);
  for (size_t i = 0; i < all.size(); ++i) {
    const OpInfo* found = lookupOp(all[i].name);
    REQUIRE(found == &all[i]);
    REQUIRE(found->index() == i);
  }
}

TEST_CASE("unknown ops have no entry", "[core][op_table]") {
  for (std::string_view n : {"", "cinn_op.groups", "pd_op.bogus", "pd_op.ad", "pd_op.add__", "test.def", "pd.relu",
                             "custom.loop", "pd_op.relu_"})
    REQUIRE(lookupOp(n) == nullptr);
  // A name is compared whole, not by prefix or a few bytes.
  std::string almost = "pd_op.matmuL";
  REQUIRE(lookupOp(almost) == nullptr);
  almost.back() = 'l';
  REQUIRE(lookupOp(almost) == &info("pd_op.matmul"));
  // Past 16 bytes the middle counts too, not only the ends and the length.
  std::string longer = "pd_op.layer_norm_grad";
  REQUIRE(lookupOp(longer) == &info("pd_op.layer_norm_grad"));
  longer[10] = 'X';
  REQUIRE(lookupOp(longer) == nullptr);
  REQUIRE(lookupOp("cf.yielD") == nullptr);
  REQUIRE(lookupOp("cf.yiel") == nullptr);
  REQUIRE(lookupOp(std::string_view("cf.yield\0", 9)) == nullptr);
}

TEST_CASE("lookups from several threads at once agree", "[core][op_table]") {
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < 2000; ++round)
        for (const OpInfo& e : opTable())
          if (lookupOp(e.name) != &e || lookupOp("cinn_op.groups")) ++wrong;
    });
  for (std::thread& t : threads) t.join();
  REQUIRE(wrong == 0);
}

TEST_CASE("operand and result names are Paddle's, in Paddle's order", "[core][op_table]") {
  const OpInfo& mg = info("pd_op.matmul_grad");
  REQUIRE(mg.operandIndex("x") == 0);
  REQUIRE(mg.operandIndex("y") == 1);
  REQUIRE(mg.operandIndex("out_grad") == 2);
  REQUIRE(mg.operandIndex("grad") == -1);
  REQUIRE(mg.layout.results[0] == "x_grad");
  REQUIRE(mg.layout.results[1] == "y_grad");

  REQUIRE(info("pd_op.sgd_").operandIndex("grad", 4) == 2);
  // An op short of the operand has none (found by fuzz_passes: a pd_op.sgd_
  // of one operand had its gradient read past its operands).
  REQUIRE(info("pd_op.sgd_").operandIndex("grad", 1) == -1);
  REQUIRE(info("pd_op.sgd_").operandIndex("param", 0) == -1);
  REQUIRE(info("pd_op.sgd_").operandIndex("param", 1) == 0);
  REQUIRE(info("pd_op.momentum_").operandIndex("grad", 5) == 1);
  REQUIRE(info("pd_op.lamb_").operandIndex("grad", 9) == 1);
  for (uint32_t n : {9u, 10u, 12u, 13u}) {
    REQUIRE(info("pd_op.adam_").operandIndex("grad", n) == 1);
    REQUIRE(info("pd_op.adamw_").operandIndex("skip_update", n) == static_cast<int>(n == 9 || n == 12 ? 8 : 9));
  }
  REQUIRE(info("pd_op.adam_").operandIndex("moment2_max", 9) == -1);
  REQUIRE(info("pd_op.adam_").operandIndex("moment2_max", 10) == 5);
  REQUIRE(info("pd_op.adam_").operandIndex("grad", 7) == -1);  // no such layout

  REQUIRE(info("pd_op.relu_grad").operandName(0, 2) == "out");
  REQUIRE(info("pd_op.slice").operandName(2, 3) == "ends");
  REQUIRE(info("pd_op.slice").operandName(3, 4).empty());
  REQUIRE(info("pd_op.while").operandName(0, 4) == "cond");
  REQUIRE(info("pd_op.while").operandName(3, 4) == "inputs");
  REQUIRE(info("builtin.combine").operandName(7, 8) == "inputs");
  REQUIRE(info("builtin.split").layout.variadicResults);
  REQUIRE(info("pd_op.send_v2").layout.results.empty());
  REQUIRE(info("pd_op.recv_v2").layout.operands.empty());
}

TEST_CASE("in-place pairs come from the inplace: entries, adam_'s by layout", "[core][op_table]") {
  using P = std::vector<std::pair<uint32_t, uint32_t>>;
  REQUIRE(pairs(info("pd_op.sgd_").inplacePairs(4)) == P{{0, 0}, {3, 1}});
  REQUIRE(pairs(info("pd_op.momentum_").inplacePairs(5)) == P{{0, 0}, {2, 1}, {4, 2}});
  P amsgrad{{0, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}, {8, 6}};
  P before{{0, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}};
  for (std::string_view adam : {"pd_op.adam_", "pd_op.adamw_"}) {
    REQUIRE(pairs(info(adam).inplacePairs(10)) == amsgrad);
    REQUIRE(pairs(info(adam).inplacePairs(13)) == amsgrad);
    REQUIRE(pairs(info(adam).inplacePairs(9)) == before);
    REQUIRE(pairs(info(adam).inplacePairs(12)) == before);
    REQUIRE(info(adam).inplacePairs(8).empty());
  }
  REQUIRE(pairs(info("pd_op.lamb_").inplacePairs(9)) == before);
  REQUIRE(pairs(info("pd_op.add_").inplacePairs(2)) == P{{0, 0}});
  REQUIRE(pairs(info("pd_op.assign_out_").inplacePairs(2)) == P{{1, 0}});
  REQUIRE(pairs(info("pd_op.all_reduce_").inplacePairs(1)) == P{{0, 0}});
  // One layout holds whatever the count; callers check the indices.
  REQUIRE(pairs(info("pd_op.sgd_").inplacePairs(3)) == P{{0, 0}, {3, 1}});
  // Ops without a trailing '_' write nothing in place; those with one do.
  for (const OpInfo& e : opTable()) REQUIRE(e.writesInPlace() == e.name.ends_with('_'));
}

TEST_CASE("the attribute naming a value, region syntax and traits", "[core][op_table]") {
  REQUIRE(info("pd_op.data").nameAttr == "name");
  REQUIRE(info("builtin.parameter").nameAttr == "parameter_name");
  REQUIRE(info("builtin.set_parameter").nameAttr.empty());  // names no value pipeline-split hands over
  REQUIRE(info("builtin.shadow_output").nameAttr == "output_name");
  REQUIRE(info("pd_op.matmul").nameAttr.empty());

  REQUIRE(info("pd_op.if").regionSyntax == RegionSyntax::IfElse);
  REQUIRE(info("pd_op.while").regionSyntax == RegionSyntax::While);
  size_t special = 0;
  for (const OpInfo& e : opTable()) special += e.regionSyntax != RegionSyntax::Generic;
  REQUIRE(special == 2);

  REQUIRE(info("builtin.combine").has(kPacksVec));
  REQUIRE(info("builtin.split").has(kPacksVec));
  REQUIRE_FALSE(info("builtin.slice").has(kPacksVec));
  for (std::string_view n : {"pd_op.reshape", "pd_op.cast", "pd_op.add", "pd_op.add_", "pd_op.all_reduce",
                             "pd_op.c_allreduce_sum", "pd_op.c_allreduce_sum_"})
    REQUIRE(info(n).has(kPassesGradient));
  size_t passing = 0;
  for (const OpInfo& e : opTable()) passing += e.has(kPassesGradient);
  REQUIRE(passing == 7);
}

TEST_CASE("linearity: per operand, unknown without an entry", "[core][op_table]") {
  OpMaker m;
  Operation* add = m.make("pd_op.add", 2);
  REQUIRE(linearityOf(*add, 0) == Linearity::Linear);
  REQUIRE(linearityOf(*add, 1) == Linearity::Linear);
  REQUIRE(linearityOf(*add, 2) == Linearity::Unknown);  // no such operand
  Operation* relu = m.make("pd_op.relu", 1);
  REQUIRE(linearityOf(*relu, 0) == Linearity::NotLinear);
  Operation* rg = m.make("pd_op.relu_grad", 2);
  REQUIRE(linearityOf(*rg, 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*rg, 1) == Linearity::Linear);
  Operation* mg = m.make("pd_op.matmul_grad", 3);
  REQUIRE(linearityOf(*mg, 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*mg, 1) == Linearity::NotLinear);
  REQUIRE(linearityOf(*mg, 2) == Linearity::Linear);
  Operation* div = m.make("pd_op.divide", 2);
  REQUIRE(linearityOf(*div, 0) == Linearity::Linear);
  REQUIRE(linearityOf(*div, 1) == Linearity::NotLinear);
  Operation* combine = m.make("builtin.combine", 6);
  REQUIRE(linearityOf(*combine, 5) == Linearity::Linear);
  Operation* sgd = m.make("pd_op.sgd_", 4);
  REQUIRE(linearityOf(*sgd, 2) == Linearity::NotLinear);
  Operation* unknown = m.make("cinn_op.group", 1);
  REQUIRE(linearityOf(*unknown, 0) == Linearity::Unknown);
  // matmul has more operands than Paddle's signature: unknown, not a guess.
  Operation* odd = m.make("pd_op.matmul", 3);
  REQUIRE(linearityOf(*odd, 2) == Linearity::Unknown);
}

TEST_CASE("linearity that depends on an attribute", "[core][op_table]") {
  OpMaker m;
  auto num = [&](std::string_view tag, std::string_view text) { return m.ctx.numberAttr(tag, text); };
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {{"bias", num("Float", "0")}}), 0) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {{"bias", num("", "0.0")}}), 1) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {}), 0) == Linearity::Linear);  // Paddle's default 0
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {{"bias", num("Float", "1")}}), 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {{"bias", m.ctx.boolAttr(true)}}), 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*m.make("pd_op.all_reduce", 1, {{"reduce_type", num("Int32", "0")}}), 0) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.all_reduce", 1, {{"reduce_type", num("Int32", "4")}}), 0) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.all_reduce", 1, {{"reduce_type", num("Int32", "1")}}), 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*m.make("pd_op.pool2d", 2, {{"pooling_type", m.ctx.stringAttr("avg")}}), 0) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.pool2d", 2, {{"pooling_type", m.ctx.stringAttr("max")}}), 0) ==
          Linearity::NotLinear);
}

TEST_CASE("the ops the code and the test programs use have entries", "[core][op_table]") {
  for (std::string_view n : {"builtin.parameter",
                             "builtin.shadow_output",
                             "builtin.combine",
                             "builtin.split",
                             "builtin.set_parameter",
                             "builtin.get_parameter",
                             "builtin.constant",
                             "cf.yield",
                             "dist_op.reshard",
                             "pd_op.data",
                             "pd_op.relu",
                             "pd_op.relu_grad",
                             "pd_op.full",
                             "pd_op.matmul",
                             "pd_op.matmul_grad",
                             "pd_op.sgd_",
                             "pd_op.adamw_",
                             "pd_op.add",
                             "pd_op.add_grad",
                             "pd_op.subtract",
                             "pd_op.subtract_grad",
                             "pd_op.mean",
                             "pd_op.mean_grad",
                             "pd_op.full_like",
                             "pd_op.less_than",
                             "pd_op.if",
                             "pd_op.while",
                             "pd_op.square",
                             "pd_op.square_grad",
                             "pd_op.send_v2",
                             "pd_op.recv_v2",
                             "pd_op.cast",
                             "pd_op.exp",
                             "pd_op.gelu",
                             "pd_op.gelu_grad",
                             "pd_op.tanh",
                             "pd_op.scale",
                             "pd_op.full_int_array",
                             "pd_op.multiply",
                             "pd_op.concat",
                             "pd_op.sigmoid",
                             "pd_op.assign",
                             "pd_op.add_",
                             "pd_op.reshape",
                             "pd_op.reshape_grad",
                             "pd_op.softmax",
                             "pd_op.softmax_grad",
                             "pd_op.layer_norm",
                             "pd_op.layer_norm_grad",
                             "pd_op.transpose",
                             "pd_op.split",
                             "pd_op.split_with_num",
                             "pd_op.slice",
                             "pd_op.all_reduce",
                             "pd_op.all_gather",
                             "pd_op.reduce_scatter",
                             "pd_op.all_to_all",
                             "pd_op.broadcast",
                             "pd_op.shadow_feed",
                             "pd_op.fetch",
                             "pd_op.assign_out_"})
    REQUIRE(lookupOp(n) != nullptr);
}

namespace {

/// The argument names of a yaml `args` list, in order:
/// `(Tensor x, int[] axis={0, 1}, bool keepdim=false)` -> x, axis, keepdim.
std::vector<std::string> argNames(std::string_view args) {
  std::vector<std::string> names;
  std::string piece;
  int depth = 0;
  auto flush = [&] {
    std::string decl = piece.substr(0, piece.find('='));
    while (!decl.empty() && decl.back() == ' ') decl.pop_back();
    names.push_back(decl.substr(decl.find_last_of(' ') + 1));
    piece.clear();
  };
  for (char c : args.substr(1, args.size() - 2)) {
    if (c == '{' || c == '(') ++depth;
    if (c == '}' || c == ')') --depth;
    if (c == ',' && depth == 0)
      flush();
    else
      piece += c;
  }
  flush();
  return names;
}

/// An op with its yaml `args` (as Paddle's yaml files give them) and the
/// attributes PIR adds for that op.
struct YamlSignature {
  std::string_view op;
  std::string_view args;
  std::vector<std::string_view> extras = {};
};

}  // namespace

TEST_CASE("attribute names are the yaml args without the operands, in yaml order", "[core][op_table]") {
  // Copied from paddle/phi/ops/yaml/ops.yaml, backward.yaml, inconsistent/static_ops.yaml
  // and static_backward.yaml, paddle/fluid/pir/dialect/operator/ir/ops.yaml, CINN's ops.yaml.
  const YamlSignature sample[] = {
      {"pd_op.conv2d",
       "(Tensor input, Tensor filter, int[] strides={1, 1}, int[] paddings={0, 0}, str padding_algorithm=\"EXPLICIT\", "
       "int[] dilations={1, 1}, int groups=1, str data_format=\"NCHW\")"},
      {"pd_op.conv2d_grad",
       "(Tensor input, Tensor filter, Tensor out_grad,  int[] strides, int[] paddings, str padding_algorithm, int[] "
       "dilations, int groups, str data_format)"},
      {"pd_op.pool2d",
       "(Tensor x, IntArray kernel_size, int[] strides, int[] paddings, bool ceil_mode, bool exclusive, str "
       "data_format, str pooling_type, bool global_pooling, bool adaptive, str padding_algorithm)"},
      {"pd_op.pool2d_grad",
       "(Tensor x, Tensor out, Tensor out_grad, IntArray kernel_size, int64_t[] strides, int64_t[] paddings, bool "
       "ceil_mode, bool exclusive, str data_format, str pooling_type, bool global_pooling, bool adaptive, str "
       "padding_algorithm)"},
      {"pd_op.batch_norm_",
       "(Tensor x, Tensor mean, Tensor variance, Tensor scale, Tensor bias, bool is_test, float momentum, float "
       "epsilon, str data_format, bool use_global_stats, bool trainable_statistics)"},
      {"pd_op.batch_norm_grad",
       "(Tensor x, Tensor scale, Tensor bias, Tensor mean_out, Tensor variance_out, Tensor saved_mean, Tensor "
       "saved_variance, Tensor reserve_space, Tensor out_grad, float momentum, float epsilon, str data_format, bool "
       "is_test, bool use_global_stats, bool trainable_statistics)"},
      {"pd_op.slice",
       "(Tensor input, int64_t[] axes, IntArray starts, IntArray ends, int64_t[] infer_flags, int64_t[] "
       "decrease_axis)"},
      {"pd_op.slice_grad",
       "(Tensor input, Tensor out_grad, int64_t[] axes, IntArray starts, IntArray ends, int64_t[] infer_flags, "
       "int64_t[] decrease_axis)"},
      {"pd_op.transpose", "(Tensor x, int[] perm)"},
      {"pd_op.transpose_grad", "(Tensor out_grad, int[] perm)"},
      {"pd_op.concat_grad", "(Tensor[] x, Tensor out_grad, Scalar axis = 0)"},
      {"pd_op.abs_grad", "(Tensor x, Tensor out_grad)"},
      {"pd_op.sum", "(Tensor x, IntArray axis={}, DataType dtype=DataType::UNDEFINED, bool keepdim=false)"},
      {"pd_op.sum_grad", "(Tensor x, Tensor out_grad, IntArray axis, bool keepdim, bool reduce_all=false)"},
      {"pd_op.mean_grad", "(Tensor x, Tensor out_grad, IntArray axis={},  bool keepdim=false, bool reduce_all=false)"},
      {"pd_op.cumsum", "(Tensor x, Scalar axis=-1, bool flatten=false, bool exclusive=false, bool reverse=false)"},
      {"pd_op.argmax",
       "(Tensor x, Scalar(int64_t) axis, bool keepdims = false, bool flatten = false, DataType dtype = "
       "DataType::INT64)"},
      {"pd_op.logsumexp", "(Tensor x, int[] axis={0},  bool keepdim=false,  bool reduce_all=false)"},
      {"pd_op.cross_entropy_with_softmax",
       "(Tensor input, Tensor label, bool soft_label=false, bool use_softmax=true, bool numeric_stable_mode=true, int "
       "ignore_index=-100, int axis=-1)"},
      {"pd_op.cross_entropy_with_softmax_grad",
       "(Tensor label, Tensor softmax, Tensor loss_grad, bool soft_label, bool use_softmax, bool numeric_stable_mode, "
       "int ignore_index, int axis)"},
      {"pd_op.layer_norm_grad",
       "(Tensor x,  Tensor scale, Tensor bias, Tensor mean, Tensor variance, Tensor out_grad, float epsilon = 1e-5, "
       "int begin_norm_axis = 1)"},
      {"pd_op.matmul_grad", "(Tensor x, Tensor y, Tensor out_grad, bool transpose_x=false, bool transpose_y=false)"},
      {"pd_op.add_grad", "(Tensor x, Tensor y, Tensor out_grad, int axis = -1)"},
      {"pd_op.scatter_grad", "(Tensor index, Tensor updates, Tensor out_grad, bool overwrite)"},
      {"pd_op.recv_v2",
       "(int[] out_shape = {}, DataType dtype = DataType::FLOAT32, int peer = 0, int ring_id = 0, bool "
       "use_calc_stream = false, bool dynamic_shape = false)"},
      {"pd_op.send_v2",
       "(Tensor x, int ring_id = 0, int peer = 0, bool use_calc_stream = false, bool dynamic_shape = false)"},
      {"pd_op.all_gather", "(Tensor x, int ring_id = 0, int nranks=0)"},
      {"pd_op.broadcast", "(Tensor x, int ring_id = 0, int root = 0)"},
      {"pd_op.c_allreduce_sum_", "(Tensor x, int ring_id, bool use_calc_stream, bool use_model_parallel)"},
      {"pd_op.print",
       "(Tensor in, int first_n, str message, int summarize, bool print_tensor_name = true, bool print_tensor_type = "
       "true, bool print_tensor_shape = true, bool print_tensor_layout = true, bool print_tensor_lod = true, str "
       "print_phase = \"BOTH\", bool is_forward = true)"},
      {"pd_op.uniform", "(IntArray shape,  DataType dtype,  Scalar min,  Scalar max,  int seed, Place place={})"},
      {"pd_op.data", "(str name, IntArray shape, DataType dtype, Place place)"},
      {"pd_op.fetch", "(Tensor x, str name, int col)"},
      {"pd_op.full",
       "(IntArray shape, Scalar(double) value, DataType dtype=DataType::FLOAT32, Place place=CPUPlace())"},
      {"pd_op.full_like", "(Tensor x, Scalar value, DataType dtype = DataType::UNDEFINED, Place place = {})"},
      {"pd_op.arange", "(Tensor start, Tensor end, Tensor step, DataType dtype, Place place={})"},
      {"pd_op.assign_value_", "(Tensor output, int[] shape, DataType dtype, Scalar[] values, Place place = {})"},
      {"pd_op.set_value_with_tensor_",
       "(Tensor x, Tensor values, IntArray starts, IntArray ends, IntArray steps, int64_t[] axes, int64_t[] "
       "decrease_axes, int64_t[] none_axes)"},
      {"pd_op.adamw_",
       "(Tensor param, Tensor grad, Tensor learning_rate, Tensor moment1, Tensor moment2, Tensor moment2_max, Tensor "
       "beta1_pow, Tensor beta2_pow, Tensor master_param, Tensor skip_update, Scalar beta1 = 0.9f, Scalar beta2 = "
       "0.999f, Scalar epsilon = 1.0e-8f, float lr_ratio = 1.0f, float coeff = 0.01f, bool with_decay = false, bool "
       "lazy_mode = false, int64_t min_row_size_to_use_multithread = 1000, bool multi_precision = false, bool "
       "use_global_beta_pow = false, bool amsgrad = false)"},
      {"pd_op.momentum_",
       "(Tensor param, Tensor grad, Tensor velocity, Tensor learning_rate, Tensor master_param, float mu, bool "
       "use_nesterov = false, str regularization_method = \"\", float regularization_coeff = 0.0f, bool "
       "multi_precision = false, float rescale_grad = 1.0f)"},
      {"pd_op.lamb_",
       "(Tensor param, Tensor grad, Tensor learning_rate, Tensor moment1, Tensor moment2, Tensor beta1_pow, Tensor "
       "beta2_pow, Tensor master_param, Tensor skip_update, float weight_decay, float beta1=0.9, float beta2=0.999, "
       "float epsilon=1.0e-6f, bool always_adapt=false, bool multi_precision=false)"},
      {"pd_op.add_", "(Tensor x, Tensor y)", {"grad_merge_add"}},
      {"cinn_op.reduce_sum", "(Tensor x, int64_t[] dim,  bool keep_dim)"},
      {"cinn_op.broadcast", "(Tensor x, int64_t[] broadcast_axes,  int64_t[] out_shape)"},
  };
  for (const YamlSignature& sig : sample) {
    INFO(sig.op << sig.args);
    const OpInfo& op = info(sig.op);
    REQUIRE(op.attributesRecorded());
    std::vector<std::string> operands, attributes;
    for (const std::string& a : argNames(sig.args)) {
      bool isOperand = false;
      for (std::string_view o : op.layout.operands) isOperand |= o == a;
      (isOperand ? operands : attributes).push_back(a);
    }
    attributes.insert(attributes.end(), sig.extras.begin(), sig.extras.end());
    // The operands are the yaml's tensors, then its mutable attributes, each in yaml order.
    CHECK(operands == std::vector<std::string>(op.layout.operands.begin(), op.layout.operands.end()));
    CHECK(attributes == std::vector<std::string>(op.attributes.begin(), op.attributes.end()));
  }
}

TEST_CASE("every entry records its attributes; the ones PIR puts on any op are apart", "[core][op_table]") {
  for (const OpInfo& op : opTable()) {
    INFO(op.name);
    CHECK(op.attributesRecorded());
    // dist_op's ops own op_dist_attr (dist_op.cc), which any op of a distributed program may carry.
    if (op.name.starts_with("dist_op.")) continue;
    for (std::string_view a : op.attributes)
      for (std::string_view g : genericAttributes()) CHECK(a != g);
  }
  CHECK(info("pd_op.relu").attributes.empty());
  CHECK(info("pd_op.relu").attributesRecorded());
  CHECK(!OpInfo{}.attributesRecorded());
  std::span<const std::string_view> g = genericAttributes();
  CHECK(std::is_sorted(g.begin(), g.end()));
  CHECK(std::find(g.begin(), g.end(), "stop_gradient") != g.end());
  CHECK(std::find(g.begin(), g.end(), "op_dist_attr") != g.end());
}

TEST_CASE("which attributes an op may print", "[core][op_table]") {
  const OpInfo& conv = info("pd_op.conv2d");
  CHECK(conv.mayPrintAttribute("strides", 2));
  CHECK(conv.mayPrintAttribute("op_role", 2));
  CHECK(!conv.mayPrintAttribute("stride", 2));
  CHECK(!conv.mayPrintAttribute("filter", 2));  // an operand, not a mutable attribute a dump leaves out
  // 2023 dumps print sum's axis, scale's scale, uniform's shape as attributes.
  CHECK(info("pd_op.sum").mayPrintAttribute("axis", 1));
  CHECK(!info("pd_op.sum").mayPrintAttribute("axis", 2));
  CHECK(info("pd_op.scale").mayPrintAttribute("scale", 1));
  CHECK(info("pd_op.uniform").mayPrintAttribute("shape", 0));
  CHECK(!info("pd_op.uniform").mayPrintAttribute("shape", 3));
  // adam_'s 12- and 13-operand signatures take beta1 as an operand; it is an attribute of the others.
  CHECK(info("pd_op.adam_").mayPrintAttribute("beta1", 10));
  CHECK(!info("pd_op.adam_").mayPrintAttribute("bogus", 13));
  // builtin.combine's inputs repeat: no operand name is ever an attribute.
  CHECK(!info("builtin.combine").mayPrintAttribute("inputs", 0));
  // Without a recorded list every key is allowed.
  CHECK(OpInfo{}.mayPrintAttribute("anything", 0));
}

TEST_CASE("an OpInfoCache answers as lookupOp for every op of a program, known or not", "[core][op_table]") {
  Context ctx;
  Context child(&ctx, nullptr);
  std::vector<Operation*> ops;
  for (const char* name : {"pd_op.matmul", "pd_op.relu", "pd_op.matmul", "pd_op.no_such_op", "builtin.combine"})
    ops.push_back(Operation::create(ctx, name, {}, {}, {}));
  // An op of a Context made over it: the parent's name, by address.
  ops.push_back(Operation::create(child, "pd_op.relu", {}, {}, {}));
  ops.push_back(Operation::create(child, "pd_op.no_such_op_either", {}, {}, {}));
  OpInfoCache cache;
  for (int round = 0; round < 2; ++round)
    for (const Operation* op : ops) {
      CAPTURE(op->name(), round);
      CHECK(cache.lookup(*op) == lookupOp(op->name()));
    }
  CHECK(cache.lookup(*ops[3]) == nullptr);
  CHECK(cache.lookup(*ops[0]) != nullptr);
  CHECK(cache.lookup(*ops[0])->name == "pd_op.matmul");
}

TEST_CASE("an OpInfoCache answers as lookupOp when names outnumber its recent slots", "[core][op_table]") {
  // Every name of the table and as many unknown ones, in two orders: names
  // share the cache's recent slots and push each other out of them, so a
  // slot answered by address alone, or not refilled, gives a wrong entry.
  Context ctx;
  std::vector<Operation*> ops;
  for (const OpInfo& info : opTable()) {
    ops.push_back(Operation::create(ctx, info.name, {}, {}, {}));
    ops.push_back(Operation::create(ctx, "custom." + std::string(info.name), {}, {}, {}));
  }
  REQUIRE(ops.size() > 256);
  OpInfoCache cache;
  for (int round = 0; round < 3; ++round)
    for (size_t k = 0; k < ops.size(); ++k) {
      const Operation* op = ops[round == 1 ? ops.size() - 1 - k : (k * 7) % ops.size()];
      CAPTURE(op->name(), round);
      REQUIRE(cache.lookup(*op) == lookupOp(op->name()));
    }
}
