//===- npy.cpp - numpy .npy files in and out ------------------------------===//
#include "runtime/npy.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

namespace pir::runtime {
namespace {

using core::Result;
using core::Status;

constexpr std::string_view kMagic = "\x93NUMPY";

struct Header {
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
};

/// A cursor over the header's Python literal.
class Lit {
 public:
  explicit Lit(std::string_view s) : s_(s) {}
  void skipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    skipSpace();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  bool peek(char c) {
    skipSpace();
    return i_ < s_.size() && s_[i_] == c;
  }
  std::optional<std::string> str() {
    skipSpace();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) return std::nullopt;
    char q = s_[i_++];
    size_t start = i_;
    while (i_ < s_.size() && s_[i_] != q) ++i_;
    if (i_ >= s_.size()) return std::nullopt;
    return std::string(s_.substr(start, i_++ - start));
  }
  std::optional<std::string_view> word() {
    skipSpace();
    size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    if (start == i_) return std::nullopt;
    return s_.substr(start, i_ - start);
  }
  bool atEnd() {
    skipSpace();
    return i_ == s_.size();
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

Result<Header> parseHeader(std::string_view text) {
  Lit p(text);
  Header h;
  bool seen[3] = {false, false, false};
  if (!p.eat('{')) return Status::error("the .npy header is not a dict");
  while (!p.eat('}')) {
    auto key = p.str();
    if (!key || !p.eat(':')) return Status::error("the .npy header is not a dict of quoted keys");
    if (*key == "descr") {
      if (p.peek('[')) return Status::error("structured dtypes are not supported");
      auto d = p.str();
      if (!d) return Status::error("the .npy header's descr is not a string");
      h.descr = *d;
      seen[0] = true;
    } else if (*key == "fortran_order") {
      auto w = p.word();
      if (!w || (*w != "True" && *w != "False")) return Status::error("the .npy header's fortran_order is not a bool");
      h.fortran = *w == "True";
      seen[1] = true;
    } else if (*key == "shape") {
      if (!p.eat('(')) return Status::error("the .npy header's shape is not a tuple");
      while (!p.eat(')')) {
        auto w = p.word();
        if (!w || w->size() > 18 || w->find_first_not_of("0123456789") != std::string_view::npos)
          return Status::error("the .npy header's shape holds something other than a dimension");
        h.shape.push_back(std::stoll(std::string(*w)));
        if (!p.eat(',') && !p.peek(')')) return Status::error("the .npy header's shape is not a tuple");
      }
      seen[2] = true;
    } else {
      return Status::error("the .npy header has an unknown key '" + *key + "'");
    }
    if (!p.eat(',') && !p.peek('}')) return Status::error("the .npy header is not a dict");
  }
  if (!seen[0] || !seen[1] || !seen[2])
    return Status::error("the .npy header lacks one of 'descr', 'fortran_order', 'shape'");
  return h;
}

Result<DataType> dtypeOf(const std::string& descr) {
  if (descr.size() < 2) return Status::error("unsupported .npy dtype '" + descr + "'");
  char order = descr[0];
  std::string_view kind = std::string_view(descr).substr(1);
  if (kind == "O" || kind.starts_with("O")) return Status::error("object arrays are not supported");
  if (order == '>' && kind != "b1" && kind != "u1" && kind != "i1")
    return Status::error("big-endian data ('" + descr + "') is not supported");
  if (order != '<' && order != '|' && order != '=') return Status::error("unsupported .npy dtype '" + descr + "'");
  if (kind == "f4") return DataType::F32;
  if (kind == "f8") return DataType::F64;
  if (kind == "i4") return DataType::I32;
  if (kind == "i8") return DataType::I64;
  if (kind == "b1") return DataType::Bool;
  if (kind == "u1") return DataType::U8;
  return Status::error("unsupported .npy dtype '" + descr + "' (the runner reads f4, f8, i4, i8, b1 and u1)");
}

uint32_t readLe(std::string_view b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint32_t(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

std::string_view descrOf(DataType t) {
  switch (t) {
    case DataType::F64:
      return "<f8";
    case DataType::I32:
      return "<i4";
    case DataType::I64:
      return "<i8";
    case DataType::Bool:
      return "|b1";
    case DataType::U8:
      return "|u1";
    default:
      return "<f4";  // F32, and BF16 written as f4
  }
}

}  // namespace

Result<Tensor> parseNpy(std::string_view bytes) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic) return Status::error("not a .npy file (no \\x93NUMPY magic)");
  int major = static_cast<unsigned char>(bytes[6]);
  if (major < 1 || major > 3) return Status::error("unsupported .npy version " + std::to_string(major));
  size_t lenBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lenBytes) return Status::error("truncated .npy header");
  size_t headerLen = readLe(bytes, 8, lenBytes);
  size_t dataAt = 8 + lenBytes + headerLen;
  if (dataAt > bytes.size()) return Status::error("truncated .npy header");
  auto header = parseHeader(bytes.substr(8 + lenBytes, headerLen));
  if (!header) return header.takeStatus();
  auto dtype = dtypeOf(header->descr);
  if (!dtype) return dtype.takeStatus();
  if (header->fortran) return Status::error("Fortran-order arrays are not supported (save with np.ascontiguousarray)");
  int64_t n = 1;
  for (int64_t d : header->shape) {
    if (d != 0 && n > (int64_t(1) << 40) / d) return Status::error("the .npy shape is too large");
    n *= d;
  }
  size_t want = size_t(n) * elementSize(*dtype);
  if (bytes.size() - dataAt < want)
    return Status::error("truncated .npy data: " + std::to_string(bytes.size() - dataAt) + " bytes, the shape needs " +
                         std::to_string(want));
  Tensor t = Tensor::allocate(*dtype, header->shape);
  if (want) std::memcpy(t.raw(), bytes.data() + dataAt, want);
  if (*dtype == DataType::Bool) {
    auto* p = static_cast<unsigned char*>(t.raw());
    for (int64_t i = 0; i < n; ++i) p[i] = p[i] != 0;  // any non-zero byte is True; a C++ bool must be 0 or 1
  }
  return t;
}

Result<Tensor> readNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(path + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  auto t = parseNpy(ss.str());
  if (!t) return t.status().withMessage(path + ": " + t.status().message());
  return t;
}

Tensor convertFloat(const Tensor& t, DataType dtype) {
  if (t.dtype() == dtype || !t.defined()) return t;
  Tensor out = Tensor::allocate(dtype, t.shape());
  if (t.dtype() == DataType::BF16 && dtype == DataType::F32) {
    for (int64_t i = 0; i < t.numel(); ++i) out.data<float>()[i] = t.data<BFloat16>()[i].toFloat();
  } else if (t.dtype() == DataType::F32 && dtype == DataType::BF16) {
    for (int64_t i = 0; i < t.numel(); ++i) out.data<BFloat16>()[i] = BFloat16::fromFloat(t.data<float>()[i]);
  } else {
    return t;
  }
  return out;
}

std::string encodeNpy(const Tensor& in) {
  Tensor t = convertFloat(in, in.dtype() == DataType::BF16 ? DataType::F32 : in.dtype());
  std::string dict = "{'descr': '" + std::string(descrOf(t.dtype())) + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < t.rank(); ++i) {
    dict += std::to_string(t.dim(i));
    if (i + 1 < t.rank() || t.rank() == 1) dict += i + 1 < t.rank() ? ", " : ",";
  }
  dict += "), }";
  int major = dict.size() + 1 + 10 > 65535 ? 2 : 1;
  size_t prefix = major == 1 ? 10 : 12;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += char(major);
  out += char(0);
  size_t len = dict.size();
  for (size_t i = 0; i < prefix - 8; ++i) out += char((len >> (8 * i)) & 0xff);
  out += dict;
  out.append(static_cast<const char*>(t.raw()), t.bytes());
  return out;
}

Status writeNpy(const std::string& path, const Tensor& t) {
  std::string bytes = encodeNpy(t);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return Status::error(path + ": cannot write");
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return Status::error(path + ": write failed");
  return Status::ok();
}

}  // namespace pir::runtime
