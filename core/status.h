//===- status.h - errors as values ------------------------------*- C++ -*-===//
//
// No exception crosses a module boundary: functions that can fail return a
// Status (or Result<T>). A Status optionally carries a byte offset into the
// source it is about, so the caller can render a located diagnostic, and a
// kind: a user error (the input or options are wrong: exit 1), an internal
// one (a broken invariant of ours, e.g. a pass whose output no longer
// verifies: exit 2), a cancellation (this rank stopped because another
// failed) or a timeout (a wait outlasted its limit). A Status may also name
// the source its offset is in and carry notes (a deadlock's per-rank
// waits), so that the CLI renders it once: messages carry no "error: "
// prefix and no trailing newline (core::renderStatus, diagnostics.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace pir::core {

class SourceFile;

/// What a failed Status says about whose fault it is.
enum class ErrorKind : uint8_t {
  User,       // the input or the options are wrong
  Internal,   // a bug: an invariant of the code does not hold
  Cancelled,  // stopped because another part (another rank) failed
  Timeout,    // a wait outlasted its limit (a deadlock, when every rank waits)
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
  static Status cancelled(std::string message) { return failure(ErrorKind::Cancelled, std::move(message)); }
  static Status timeout(std::string message, int64_t offset = -1) {
    return failure(ErrorKind::Timeout, std::move(message), offset);
  }
  /// A failure a DiagnosticEngine rendered already (several located
  /// diagnostics, e.g. a pass's): renderStatus prints its text as it is.
  static Status rendered(ErrorKind kind, std::string text) {
    Status s = failure(kind, std::move(text));
    s.edit().rendered = true;
    return s;
  }
  static Status failure(ErrorKind kind, std::string message, int64_t offset = -1) {
    Status s;
    s.f_ = std::make_shared<Failure>();
    s.f_->kind = kind;
    s.f_->message = std::move(message);
    s.f_->offset = offset;
    return s;
  }

  bool isOk() const { return !f_; }
  explicit operator bool() const { return !f_; }
  const std::string& message() const { return f_ ? f_->message : empty(); }
  /// Byte offset in the source this error is about, or -1.
  int64_t offset() const { return f_ ? f_->offset : -1; }
  /// Whose fault a failure is (User for an ok Status).
  ErrorKind kind() const { return f_ ? f_->kind : ErrorKind::User; }
  bool isInternal() const { return f_ && f_->kind == ErrorKind::Internal; }
  bool isCancelled() const { return f_ && f_->kind == ErrorKind::Cancelled; }
  bool isTimeout() const { return f_ && f_->kind == ErrorKind::Timeout; }
  /// Whether message() is diagnostics rendered already (Status::rendered).
  bool isRendered() const { return f_ && f_->rendered; }
  /// The same failure (kind, offset, source, notes) with another message,
  /// e.g. one that says where it happened.
  Status withMessage(std::string message) const {
    Status s = *this;
    if (f_) s.edit().message = std::move(message);
    return s;
  }
  /// The same failure, its message after `prefix` ("rank 1: ...").
  Status prefixed(const std::string& prefix) const { return withMessage(prefix + message()); }
  /// The source file the offset is in (null: the caller's, or none).
  const SourceFile* source() const { return f_ ? f_->source : nullptr; }
  /// The same failure located in `source` (kept when it has one already).
  Status in(const SourceFile* source) const {
    Status s = *this;
    if (f_ && !f_->source) s.edit().source = source;
    return s;
  }
  /// Further failures rendered after this one (each rank's wait of a deadlock).
  const std::vector<Status>& notes() const {
    static const std::vector<Status> kNone;
    return f_ ? f_->notes : kNone;
  }
  Status withNotes(std::vector<Status> notes) const {
    Status s = *this;
    if (f_) s.edit().notes = std::move(notes);
    return s;
  }

 private:
  // A failure's facts, shared by copies and copied on edit: an ok Status is
  // one null pointer (statuses are returned on every hot path: parse, run).
  struct Failure {
    ErrorKind kind = ErrorKind::User;
    std::string message;
    int64_t offset = -1;
    bool rendered = false;
    const SourceFile* source = nullptr;
    std::vector<Status> notes;
  };
  static const std::string& empty() {
    static const std::string kEmpty;
    return kEmpty;
  }
  /// This status's own copy of its failure, to change.
  Failure& edit() {
    if (f_.use_count() > 1) f_ = std::make_shared<Failure>(*f_);
    return *f_;
  }
  std::shared_ptr<Failure> f_;
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
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Status& status() const { return std::get<1>(v_); }
  Status takeStatus() { return std::move(std::get<1>(v_)); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace pir::core
