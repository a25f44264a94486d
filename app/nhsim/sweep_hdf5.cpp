// `nhsim sweep --out FILE.h5`: the rows kept in memory (a double per run and column, a status
// per run); at commit the serial HDF5 C library builds the file in memory (the core driver,
// no backing store) and its image goes to disk through AtomicOutput, like every output: a
// hidden temporary in the target's folder, fsynced and renamed over the target, so the file
// is complete or absent and a failed write reports the system's reason.
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "app/nhsim/cli_support.h"
#include "app/nhsim/sweep_output.h"
#include "core/io/atomic_output.h"

namespace nh::cli {

namespace {

// An HDF5 handle closed by `closer` (H5Fclose, H5Dclose, ...) when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*closer)(hid_t)) : id_(id), close_(closer) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// The creation properties of every object of the file: no modification times, so that equal
// sweeps give equal files byte for byte.
Handle untimed(hid_t propertyClass = H5P_DATASET_CREATE) {
  Handle list(H5Pcreate(propertyClass), H5Pclose);
  if (list.get() >= 0) H5Pset_obj_track_times(list.get(), false);
  return list;
}

// A 1-D string dataset (attribute = false) or a root attribute (a scalar for one string).
bool writeStrings(hid_t file, hid_t type, const char* name, const std::vector<std::string>& items,
                  bool attribute) {
  std::vector<const char*> pointers;
  for (const auto& item : items) pointers.push_back(item.c_str());
  const hsize_t count = items.size();
  Handle space(
      attribute && count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr),
      H5Sclose);
  if (space.get() < 0) return false;
  if (attribute) {
    Handle a(H5Acreate2(file, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    return a.get() >= 0 && (count == 0 || H5Awrite(a.get(), type, pointers.data()) >= 0);
  }
  Handle d(H5Dcreate2(file, name, type, space.get(), H5P_DEFAULT, untimed().get(), H5P_DEFAULT),
           H5Dclose);
  return d.get() >= 0 && (count == 0 || H5Dwrite(d.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                                 pointers.data()) >= 0);
}

bool writeInteger(hid_t file, const char* name, long value) {
  const std::int64_t v = value;
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  if (space.get() < 0) return false;
  Handle a(H5Acreate2(file, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  return a.get() >= 0 && H5Awrite(a.get(), H5T_NATIVE_INT64, &v) >= 0;
}

class Hdf5Output final : public SweepOutput {
 public:
  Hdf5Output(const std::string& path, const study::Study& study, const std::string& command)
      : path_(path), study_(study), columns_(study.columns()) {
    columns_.pop_back();  // "status" is its own dataset
    const std::string header = study.headerText(command);
    for (size_t start = 0; start < header.size();) {
      const size_t end = header.find('\n', start);
      const std::string line = header.substr(start, end - start);
      if (line.rfind("# ", 0) == 0) comments_.push_back(line.substr(2));
      start = end + 1;
    }
    try {
      if (outputTargetFor(path).kind != OutputTarget::Kind::Replace)
        throw InputError("cannot write " + quote(path) +
                         ": HDF5 needs a regular file it can seek in (not standard output, a "
                         "pipe or a device); give a FILE.h5 path or write CSV");
      out_.open(path);  // the temporary now: an unwritable folder is bad input (exit 2)
    } catch (const InputError&) {
      throw;
    } catch (const Error& e) {
      throw InputError(e.what());
    }
    values_.reserve(static_cast<size_t>(std::min<long>(study.runCount(), 1L << 20)) *
                    columns_.size());
  }

  void add(const study::RunResult& result) override {
    values_.insert(values_.end(), result.varied.begin(), result.varied.end());
    values_.insert(values_.end(), result.measures.begin(), result.measures.end());
    status_.push_back(result.status);
  }

  void commit(long written) override {
    std::vector<std::string> comments = comments_;
    const long total = study_.runCount();
    if (written < total) {
      std::string partial = study::Study::partialText(written, total);
      partial.pop_back();  // '\n'
      comments.push_back(partial.substr(2));
    }
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported by the codes below
    const std::vector<char> image = fileImage(comments, written, total);
    if (image.empty()) {
      out_.abort();
      throw Error("cannot write '" + path_ + "': the HDF5 library failed to build the file");
    }
    out_.write(image.data(), image.size());
    out_.commit();
  }

 private:
  // The whole file, built in memory; empty when the library fails.
  std::vector<char> fileImage(const std::vector<std::string>& comments, long written,
                              long total) const {
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    if (access.get() < 0 || H5Pset_fapl_core(access.get(), 1 << 20, false) < 0) return {};
    const Handle creation = untimed(H5P_FILE_CREATE);  // the root group's
    Handle file(H5Fcreate("sweep.h5", H5F_ACC_TRUNC, creation.get(), access.get()), H5Fclose);
    if (file.get() < 0 || !writeContents(file.get(), comments, written, total) ||
        H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0)
      return {};
    const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
    if (size <= 0) return {};
    std::vector<char> image(static_cast<size_t>(size));
    if (H5Fget_file_image(file.get(), image.data(), image.size()) != size) return {};
    return image;
  }

  // "values" (runs × columns, doubles), "columns" and "status" (strings); root attributes
  // "comments" (the CSV's comment lines without "# "), "command", "system", "runs", "rows"
  // and, when interrupted, "partial".
  bool writeContents(hid_t file, const std::vector<std::string>& comments, long written,
                     long total) const {
    Handle text(H5Tcopy(H5T_C_S1), H5Tclose);
    if (text.get() < 0 || H5Tset_size(text.get(), H5T_VARIABLE) < 0 ||
        H5Tset_cset(text.get(), H5T_CSET_UTF8) < 0)
      return false;
    const hsize_t dims[2] = {static_cast<hsize_t>(written), columns_.size()};
    Handle table(H5Screate_simple(2, dims, nullptr), H5Sclose);
    if (table.get() < 0) return false;
    Handle values(H5Dcreate2(file, "values", H5T_IEEE_F64LE, table.get(), H5P_DEFAULT,
                             untimed().get(), H5P_DEFAULT),
                  H5Dclose);
    if (values.get() < 0) return false;
    if (written > 0 && H5Dwrite(values.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                values_.data()) < 0)
      return false;
    if (!writeStrings(file, text.get(), "columns", columns_, false) ||
        !writeStrings(file, text.get(), "status", status_, false) ||
        !writeStrings(file, text.get(), "comments", comments, true) ||
        !writeStrings(file, text.get(), "command", {comments_.front()}, true) ||
        !writeInteger(file, "runs", total) || !writeInteger(file, "rows", written))
      return false;
    for (const std::string& comment : comments_)
      if (comment.rfind("system: ", 0) == 0 &&
          !writeStrings(file, text.get(), "system", {comment.substr(8)}, true))
        return false;
    return written == total || writeStrings(file, text.get(), "partial", {comments.back()}, true);
  }

  std::string path_;
  const study::Study& study_;
  std::vector<std::string> columns_, comments_, status_;
  std::vector<double> values_;  // row-major, columns_.size() per run
  AtomicOutput out_;
};

}  // namespace

std::unique_ptr<SweepOutput> openHdf5Output(const std::string& path, const study::Study& study,
                                            const std::string& command) {
  return std::make_unique<Hdf5Output>(path, study, command);
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
