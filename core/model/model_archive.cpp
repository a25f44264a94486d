// A loaded model file as bytes and back (model_archive.h): each struct's fields listed once
// for writing and reading, behind a magic string that ties an archive to its build's layout.
#include "core/model/model_archive.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "core/model/model_data.h"

namespace nh::model {

namespace {

// Written first: a program reads only archives of its own build's layout.
constexpr std::string_view kMagic = "nhlab-model-archive-1";

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsMap : std::false_type {};
template <class K, class V>
struct IsMap<std::map<K, V>> : std::true_type {};

// ---- The fields of each struct, in one list for writing and reading

template <class A>
void fields(A& a, Node& x) {
  a(x.op, x.a, x.b, x.value, x.slot, x.offset);
}
template <class A>
void fields(A& a, SourcePosition& x) {
  a(x.line, x.column);
}
template <class A>
void fields(A& a, Expression& x) {
  a(x.nodes, x.text, x.key, x.where);
}
template <class A>
void fields(A& a, SlotLayout& x) {
  a(x.parameters, x.coordinates, x.velocities, x.definitions, x.multipliers, x.controls);
}
template <class A>
void fields(A& a, StructureTerm& x) {
  a(x.a, x.b, x.c, x.value, x.skew);
}
template <class A>
void fields(A& a, SceneRotation& x) {
  a(x.quaternion, x.axis, x.angle);
}
template <class A>
void fields(A& a, SceneBodySpec& x) {
  a(x.name, x.kind, x.position, x.orientation, x.size, x.colour);
}
template <class A>
void fields(A& a, SceneArrowSpec& x) {
  a(x.name, x.unit, x.kind, x.origin, x.vector);
}
template <class A>
void fields(A& a, ScenePointSpec& x) {
  a(x.name, x.position, x.inMovingFrame);
}
template <class A>
void fields(A& a, SceneSpec& x) {
  a(x.present, x.extent, x.movingFrame, x.bodies, x.arrows, x.points);
}
template <class A>
void fields(A& a, ParameterCheck& x) {
  a(x.expression, x.strict, x.message);
}
template <class A>
void fields(A& a, ModelData::DefinitionsRead& x) {
  a(x.lagrangian, x.constraints, x.forces, x.structure, x.holonomic, x.singular, x.referenceFrame,
    x.outputs);
}
template <class A>
void fields(A& a, ModelData& x) {
  a(x.text, x.fileName, x.path, x.layout, x.slotNames, x.definitionNames, x.definitions);
  a(x.anchorGiven, x.anchorText, x.rho, x.structureGiven, x.structureConstant, x.structure);
  a(x.lagrangian, x.forces, x.constraints, x.holonomic, x.holonomicRate, x.holonomicJacobian);
  a(x.parameterChecks, x.singular, x.outputs, x.referenceFrame, x.hasReferenceFrame);
  a(x.controlSection, x.cost, x.scene, x.maxNodes, x.definitionsRead, x.loadWarnings);
}
template <class A>
void fields(A& a, ParameterInfo& x) {
  a(x.name, x.unit, x.description, x.defaultValue, x.min, x.max, x.minExclusive, x.maxExclusive,
    x.label);
}
template <class A>
void fields(A& a, QuaternionSlot& x) {
  a(x.first);
}
template <class A>
void fields(A& a, DragHandle& x) {
  a(x.body, x.x, x.y, x.arrow, x.vx, x.vy, x.velocityInBodyAxes);
}
template <class A>
void fields(A& a, SceneEditing& x) {
  a(x.drag, x.followBody, x.movingFrame);
}
template <class A>
void fields(A& a, VariableLabel& x) {
  a(x.name, x.label, x.unit);
}
template <class A>
void fields(A& a, SystemInfo::ContinuousPhase& x) {
  a(x.parameter, x.quantity);
}
template <class A>
void fields(A& a, SystemInfo& x) {
  a(x.name, x.title, x.description, x.source, x.equations, x.initialization, x.parameters);
  a(x.coordinates, x.velocities, x.stateOrder, x.independentVelocities, x.defaultCoordinates,
    x.defaultVelocities, x.quaternions, x.stateLimits, x.constantStructure);
  a(x.cyclicCoordinates, x.dependentCoordinates, x.constraintCount, x.holonomicCount,
    x.singularities, x.outputs, x.editing, x.variableLabels, x.continuousPhases, x.stateUnits,
    x.controls);
}

// ---- Bytes: whole numbers (and enums, flags) as zigzag varints, doubles as their 8 bytes,
// sequences as their length and then their items.

class Writer {
 public:
  std::string bytes;

  template <class... T>
  void operator()(const T&... x) {
    (put(x), ...);
  }

 private:
  void whole(long long v) {
    auto u = (static_cast<unsigned long long>(v) << 1) ^ static_cast<unsigned long long>(v >> 63);
    while (u >= 0x80) {
      bytes.push_back(static_cast<char>((u & 0x7F) | 0x80));
      u >>= 7;
    }
    bytes.push_back(static_cast<char>(u));
  }
  template <class T>
  void put(const T& x) {
    if constexpr (std::is_same_v<T, double>) {
      char b[sizeof(double)];
      std::memcpy(b, &x, sizeof b);
      bytes.append(b, sizeof b);
    } else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) {
      whole(static_cast<long long>(x));
    } else if constexpr (std::is_same_v<T, std::string>) {
      whole(static_cast<long long>(x.size()));
      bytes += x;
    } else if constexpr (std::is_same_v<T, Eigen::Vector3d>) {
      (*this)(x.x(), x.y(), x.z());
    } else if constexpr (IsVector<T>::value || IsMap<T>::value) {
      whole(static_cast<long long>(x.size()));
      for (const auto& item : x) put(item);
    } else if constexpr (IsOptional<T>::value) {
      put(x.has_value());
      if (x) put(*x);
    } else if constexpr (requires {
                           x.first;
                           x.second;
                         }) {
      (*this)(x.first, x.second);
    } else {
      fields(*this, const_cast<T&>(x));  // a struct: fields() only reads it through a Writer
    }
  }
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}
  bool atEnd() const { return rest_.empty(); }

  template <class... T>
  void operator()(T&... x) {
    (get(x), ...);
  }
  void expect(std::string_view text) {
    if (rest_.substr(0, text.size()) != text) malformed();
    rest_.remove_prefix(text.size());
  }

 private:
  std::string_view rest_;

  [[noreturn]] static void malformed() {
    throw std::runtime_error("a compiled model archive is malformed");
  }
  long long whole() {
    unsigned long long u = 0;
    for (int shift = 0;; shift += 7) {
      if (rest_.empty() || shift > 63) malformed();
      const auto b = static_cast<unsigned char>(rest_.front());
      rest_.remove_prefix(1);
      u |= static_cast<unsigned long long>(b & 0x7F) << shift;
      if (!(b & 0x80)) break;
    }
    return static_cast<long long>(u >> 1) ^ -static_cast<long long>(u & 1);
  }
  size_t count() {
    const long long n = whole();
    if (n < 0 || static_cast<unsigned long long>(n) > rest_.size()) malformed();
    return static_cast<size_t>(n);
  }
  template <class T>
  void get(T& x) {
    if constexpr (std::is_same_v<T, double>) {
      if (rest_.size() < sizeof(double)) malformed();
      std::memcpy(&x, rest_.data(), sizeof(double));
      rest_.remove_prefix(sizeof(double));
    } else if constexpr (std::is_same_v<T, bool>) {
      x = whole() != 0;
    } else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) {
      x = static_cast<T>(whole());
    } else if constexpr (std::is_same_v<T, std::string>) {
      const size_t n = count();
      x.assign(rest_.substr(0, n));
      rest_.remove_prefix(n);
    } else if constexpr (std::is_same_v<T, Eigen::Vector3d>) {
      (*this)(x.x(), x.y(), x.z());
    } else if constexpr (IsVector<T>::value) {
      x.resize(count());
      for (auto& item : x) get(item);
    } else if constexpr (IsMap<T>::value) {
      x.clear();
      for (size_t i = count(); i > 0; --i) {
        std::pair<typename T::key_type, typename T::mapped_type> item;
        (*this)(item.first, item.second);
        x.insert(std::move(item));
      }
    } else if constexpr (IsOptional<T>::value) {
      bool present = false;
      get(present);
      x.reset();
      if (present) {
        // Read into a value of its own, then moved in: with emplace(), g++ 12 under
        // -fsanitize=thread warned of an uninitialised string in the optional (a false alarm).
        typename T::value_type value{};
        get(value);
        x = std::move(value);
      }
    } else {
      fields(*this, x);
    }
  }
};

}  // namespace

std::string archiveModel(const FormulaSystem& system) {
  Writer w;
  w.bytes = kMagic;
  w(system.data(), system.info());
  return std::move(w.bytes);
}

std::shared_ptr<const FormulaSystem> unarchiveModel(std::string_view bytes) {
  Reader r(bytes);
  r.expect(kMagic);
  auto data = std::make_shared<ModelData>();
  SystemInfo info;
  r(*data, info);
  if (!r.atEnd()) throw std::runtime_error("a compiled model archive is malformed");
  return std::make_shared<FormulaSystem>(std::move(data), std::move(info));
}

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
