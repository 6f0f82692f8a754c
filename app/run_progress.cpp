//===- run_progress.cpp - pir-run's progress bar on stderr ----------------===//
#include "app/run_progress.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace pir::app {

namespace {

constexpr auto kFirstDraw = std::chrono::seconds(1);      // shorter runs draw nothing
constexpr auto kRedraw = std::chrono::milliseconds(200);  // at most 5 times a second

void writeAll(const std::string& s) {
  size_t at = 0;
  while (at < s.size()) {
    ssize_t n = ::write(2, s.data() + at, s.size() - at);
    if (n <= 0) return;  // a terminal that went away: drop the bar
    at += size_t(n);
  }
}

}  // namespace

ProgressBar::ProgressBar(const RunProgress& progress, bool enabled) : progress_(progress) {
  if (enabled && ::isatty(2)) thread_ = std::thread([this] { report(); });
}

ProgressBar::~ProgressBar() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void ProgressBar::above(const std::function<void()>& print) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (::isatty(1)) erase();
  print();
}

void ProgressBar::erase() {
  if (drawn_) writeAll("\r" + std::string(drawn_, ' ') + "\r");
  drawn_ = 0;
}

void ProgressBar::report() {
  auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  auto next = start + kFirstDraw;
  while (!wake_.wait_until(lock, next, [this] { return stop_; })) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string text = progress_.line(secs);
    // Pad over a longer previous line (the counts only grow, but be safe).
    size_t width = text.size();
    if (text.size() < drawn_) text.append(drawn_ - text.size(), ' ');
    writeAll("\r" + text);
    drawn_ = std::max(drawn_, width);
    next += kRedraw;
  }
  erase();
}

}  // namespace pir::app
