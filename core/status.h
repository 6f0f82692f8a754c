//===- status.h - errors as values ------------------------------*- C++ -*-===//
//
// No exception crosses a module boundary: functions that can fail return a
// Status (or Result<T>). A Status optionally carries a byte offset into the
// source it is about, so the caller can render a located diagnostic, and a
// kind: a user error (the input or options are wrong: exit 1) or an internal
// one (a broken invariant of ours, e.g. a pass whose output no longer
// verifies: exit 2).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace pir::core {

/// What a failed Status says about whose fault it is.
enum class ErrorKind : uint8_t {
  User,      // the input or the options are wrong
  Internal,  // a bug: an invariant of the code does not hold
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status ok() { return Status(); }
  /// A user error: what was given is wrong.
  static Status error(std::string message, int64_t offset = -1) {
    return failure(ErrorKind::User, std::move(message), offset);
  }
  /// An internal error: a broken invariant, not the input's fault.
  static Status internal(std::string message, int64_t offset = -1) {
    return failure(ErrorKind::Internal, std::move(message), offset);
  }
  static Status failure(ErrorKind kind, std::string message, int64_t offset = -1) {
    Status s;
    s.failed_ = true;
    s.kind_ = kind;
    s.message_ = std::move(message);
    s.offset_ = offset;
    return s;
  }

  bool isOk() const { return !failed_; }
  explicit operator bool() const { return !failed_; }
  const std::string& message() const { return message_; }
  /// Byte offset in the source this error is about, or -1.
  int64_t offset() const { return offset_; }
  /// Whose fault a failure is (User for an ok Status).
  ErrorKind kind() const { return kind_; }
  bool isInternal() const { return failed_ && kind_ == ErrorKind::Internal; }
  /// The same failure (kind and offset) with another message, e.g. one
  /// that says where it happened.
  Status withMessage(std::string message) const { return failure(kind_, std::move(message), offset_); }

 private:
  bool failed_ = false;
  ErrorKind kind_ = ErrorKind::User;
  std::string message_;
  int64_t offset_ = -1;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Status error) : v_(std::move(error)) { assert(!std::get<Status>(v_).isOk()); }

  bool isOk() const { return v_.index() == 0; }
  explicit operator bool() const { return isOk(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  T* operator->() { return &value(); }
  const Status& status() const { return std::get<1>(v_); }
  Status takeStatus() { return std::move(std::get<1>(v_)); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace pir::core
