// The app's export UI (export_dialog.h): the animation dialog (format and size tables
// kFormats and kPresets, time range, what to show, progress, Cancel, settings kept per format)
// and the screenshot, plot, data and interactive-page exports behind the File menu.
#include "ui/export/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <filesystem>

#include "core/nh/errors.h"
#include "ui/export/media/virtual_display.h"
#include "ui/plot/plot_widget.h"
#include "ui/sim/run_history.h"

namespace nhui {

namespace {

struct FormatChoice {
  const char* label;
  const char* suffix;  // "" for a PNG sequence folder
};
constexpr FormatChoice kFormats[] = {{"MP4 (H.264)", "mp4"},
                                     {"WebM (VP9)", "webm"},
                                     {"Animated GIF", "gif"},
                                     {"PNG image sequence (folder)", ""}};

struct Preset {
  const char* label;
  int width, height;
};
constexpr Preset kPresets[] = {{"1920 × 1080 (Full HD)", 1920, 1080},
                               {"1280 × 720 (HD)", 1280, 720},
                               {"854 × 480", 854, 480},
                               {"640 × 360", 640, 360},
                               {"480 × 270 (web GIF)", 480, 270},
                               {"Custom", 0, 0}};

QString humanSize(std::uintmax_t bytes) {
  if (bytes >= 1000000) return QString("%1 MB").arg(bytes / 1e6, 0, 'f', 1);
  return QString("%1 kB").arg(bytes / 1e3, 0, 'f', 0);
}

QString humanSeconds(double s) {
  if (s < 0) return QStringLiteral("…");
  if (s < 90) return QString("%1 s").arg(std::ceil(s));
  return QString("%1 min %2 s").arg(static_cast<int>(s) / 60).arg(static_cast<int>(s) % 60);
}

// Asks for a size: presets or a custom width × height. Returns an invalid size on cancel.
QSize askSize(QWidget* parent, const QString& title, const QSize& suggested) {
  QStringList items;
  const QString current =
      QString("%1 × %2 (current)").arg(suggested.width()).arg(suggested.height());
  items << current << "3840 × 2160"
        << "1920 × 1080"
        << "1280 × 720"
        << "800 × 600";
  bool ok = false;
  const QString choice =
      QInputDialog::getItem(parent, title, QObject::tr("Size in pixels:"), items, 0, true, &ok);
  if (!ok) return {};
  const QStringList parts =
      QString(choice).remove(" (current)").split(QRegularExpression("[^0-9]+"), Qt::SkipEmptyParts);
  if (parts.size() < 2) return {};
  return QSize(parts[0].toInt(), parts[1].toInt());
}

}  // namespace

// ---- Entry points ---------------------------------------------------------------------------

void showExportDialog(QWidget* parent, const nh::Scenario& scenario,
                      const ExportDefaults& defaults) {
  if (auto* open = parent ? parent->findChild<ExportDialog*>(QString(), Qt::FindDirectChildrenOnly)
                          : nullptr) {
    if (open->isRunning()) {
      open->show();
      open->raise();
      open->activateWindow();
      return;
    }
    // Deleted once control returns to the event loop (its destructor waits for nothing: it
    // is idle); out of the window's children at once, so it is not found again.
    open->setParent(nullptr);
    open->deleteLater();
  }
  auto* dialog = new ExportDialog(scenario, defaults, parent);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
  dialog->raise();
}

void exportScreenshot(QWidget* parent, const RunHistory& run, SceneImageRequest request) {
  const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export screenshot"),
                                                    QDir::home().filePath("scene.png"),
                                                    QObject::tr("PNG image (*.png)"));
  if (path.isEmpty()) return;
  const QSize size = askSize(parent, QObject::tr("Screenshot size"), request.size);
  if (!size.isValid()) return;
  request.size = size;
  try {
    // The offscreen window needs X; the app normally has it (XWayland), else start Xvfb.
    static std::unique_ptr<nh::VirtualDisplay> display = nh::ensureDisplay();
    saveSceneImage(path.endsWith(".png", Qt::CaseInsensitive) ? path : path + ".png", run, request);
  } catch (const std::exception& e) {
    QMessageBox::warning(parent, QObject::tr("Export screenshot"),
                         QObject::tr("The screenshot was not saved: %1").arg(e.what()));
  }
}

void exportPlot(QWidget* parent, const PlotWidget& plot, const QString& xLabel,
                const QString& suggestedName) {
  QString filter;
  QString path = QFileDialog::getSaveFileName(
      parent, QObject::tr("Export plot"), QDir::home().filePath(suggestedName + ".svg"),
      QObject::tr("SVG vector image (*.svg);;PNG image (*.png)"), &filter);
  if (path.isEmpty()) return;
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != "png" && suffix != "svg") path += filter.contains("png") ? ".png" : ".svg";
  const QSize size = askSize(parent, QObject::tr("Plot size"), plot.size());
  if (!size.isValid()) return;
  try {
    savePlotImage(path, plotSnapshot(plot, xLabel), size);
  } catch (const std::exception& e) {
    QMessageBox::warning(parent, QObject::tr("Export plot"),
                         QObject::tr("The plot was not saved: %1").arg(e.what()));
  }
}

void exportData(QWidget* parent, const RunHistory& run, const nh::Scenario& scenario) {
  QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export data"),
                                              QDir::home().filePath("trajectory.csv"),
                                              QObject::tr("CSV table (*.csv)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += ".csv";
  try {
    const QString note = saveTrajectory(path, run, scenario);
    QString text = QObject::tr("Saved %1 samples to %2 and the scenario to %3.")
                       .arg(run.size())
                       .arg(QDir::toNativeSeparators(path),
                            QDir::toNativeSeparators(scenarioPathForData(path)));
    if (!note.isEmpty()) text += "\n\n" + note;
    QMessageBox::information(parent, QObject::tr("Export data"), text);
  } catch (const std::exception& e) {
    QMessageBox::warning(parent, QObject::tr("Export data"),
                         QObject::tr("The data were not saved: %1").arg(e.what()));
  }
}

void exportInteractivePage(QWidget* parent, const RunHistory& run, const PageSettings& page,
                           const QString& suggestedName, const ComparisonScene& comparison,
                           const RunHistory* comparisonRun) {
  const QString title = QObject::tr("Export interactive page");
  if (!interactivePageAvailable()) {
    QMessageBox::warning(parent, title, QString::fromUtf8(kPageUnavailable));
    return;
  }
  QString path =
      QFileDialog::getSaveFileName(parent, title, QDir::home().filePath(suggestedName + ".html"),
                                   QObject::tr("Web page (*.html)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += ".html";
  try {
    const std::uintmax_t bytes = writeInteractivePage(
        path.toStdString(), interactivePage(run, page, comparison, comparisonRun));
    QMessageBox::information(
        parent, title,
        QObject::tr("Saved the page (%1 kB) to %2. It opens in any browser, without a network.")
            .arg(bytes / 1000)
            .arg(QDir::toNativeSeparators(path)));
  } catch (const std::exception& e) {
    QMessageBox::warning(parent, title, QObject::tr("The page was not saved: %1").arg(e.what()));
  }
}

// ---- Dialog ---------------------------------------------------------------------------------

ExportDialog::ExportDialog(const nh::Scenario& scenario, const ExportDefaults& defaults,
                           QWidget* parent)
    : QDialog(parent), scenario_(scenario), defaults_(defaults) {
  setWindowTitle(tr("Export animation"));
  setObjectName("exportDialog");
  buildUi();
  connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &ExportDialog::onFinished);
}

ExportDialog::~ExportDialog() { cancelAndWait(); }

void ExportDialog::cancelAndWait() {
  if (!watcher_.isRunning()) return;
  cancel_ = true;
  status_->setText(tr("Cancelling…"));
  watcher_.waitForFinished();
}

void ExportDialog::buildUi() {
  auto* form = new QFormLayout;
  QPushButton* browse = addFileRows(form);
  addVideoRows(form);
  addTimeRows(form);
  addShowRows(form);

  progress_ = new QProgressBar;
  progress_->setVisible(false);
  status_ = new QLabel;
  status_->setObjectName("exportStatus");
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(progress_);
  layout->addWidget(status_);
  layout->addLayout(buildButtons());

  connectControls(browse);
  if (defaults_.rememberSettings) restoreLastFormat();
  updateSummary();
}

QPushButton* ExportDialog::addFileRows(QFormLayout* form) {
  path_ = new QLineEdit;
  path_->setObjectName("exportPath");
  const QString dir = defaults_.directory.isEmpty() ? QDir::homePath() : defaults_.directory;
  path_->setText(QDir(dir).filePath(defaults_.baseName + ".mp4"));
  auto* browse = new QPushButton(tr("Browse…"));
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(path_, 1);
  pathRow->addWidget(browse);
  form->addRow(tr("File:"), pathRow);

  format_ = new QComboBox;
  format_->setObjectName("exportFormat");
  for (const auto& f : kFormats) format_->addItem(tr(f.label));
  form->addRow(tr("Format:"), format_);
  return browse;
}

void ExportDialog::addVideoRows(QFormLayout* form) {
  resolution_ = new QComboBox;
  resolution_->setObjectName("exportResolution");
  for (const auto& p : kPresets) resolution_->addItem(tr(p.label));
  resolution_->setCurrentIndex(1);
  width_ = new QSpinBox;
  width_->setObjectName("exportWidth");
  height_ = new QSpinBox;
  height_->setObjectName("exportHeight");
  width_->setRange(nh::kMinVideoSide, nh::kMaxVideoWidth);
  height_->setRange(nh::kMinVideoSide, nh::kMaxVideoHeight);
  width_->setValue(1280);
  height_->setValue(720);
  width_->setEnabled(false);
  height_->setEnabled(false);
  auto* sizeRow = new QHBoxLayout;
  sizeRow->addWidget(resolution_, 1);
  sizeRow->addWidget(width_);
  sizeRow->addWidget(new QLabel("×"));
  sizeRow->addWidget(height_);
  form->addRow(tr("Resolution:"), sizeRow);

  fps_ = new QDoubleSpinBox;
  fps_->setObjectName("exportFps");
  fps_->setRange(1, 120);
  fps_->setDecimals(0);
  fps_->setValue(30);
  fps_->setSuffix(tr(" fps"));
  form->addRow(tr("Frame rate:"), fps_);
}

void ExportDialog::addTimeRows(QFormLayout* form) {
  tStart_ = new QDoubleSpinBox;
  tStart_->setObjectName("exportStart");
  tEnd_ = new QDoubleSpinBox;
  tEnd_->setObjectName("exportEnd");
  for (QDoubleSpinBox* b : {tStart_, tEnd_}) {
    b->setRange(0, 1e6);
    b->setDecimals(2);
    b->setSuffix(" s");
  }
  tEnd_->setValue(defaults_.tEnd > 0 ? defaults_.tEnd : 10);
  auto* spanRow = new QHBoxLayout;
  spanRow->addWidget(tStart_);
  spanRow->addWidget(new QLabel(tr("to")));
  spanRow->addWidget(tEnd_);
  form->addRow(tr("Simulated time:"), spanRow);

  speed_ = new QDoubleSpinBox;
  speed_->setObjectName("exportSpeed");
  speed_->setRange(0.01, 1000);
  speed_->setDecimals(2);
  speed_->setValue(1);
  speed_->setSuffix(tr(" × real time"));
  speed_->setToolTip(
      tr("Simulated seconds per video second: below 1 slow motion, above 1 time-lapse"));
  form->addRow(tr("Playback speed:"), speed_);
}

void ExportDialog::addShowRows(QFormLayout* form) {
  trails_ = new QCheckBox(tr("Trails"));
  trails_->setObjectName("exportTrails");
  trails_->setChecked(defaults_.view.display.trails);
  trailSeconds_ = new QDoubleSpinBox;
  trailSeconds_->setRange(0.1, 1e5);
  trailSeconds_->setSuffix(tr(" s"));
  trailSeconds_->setValue(std::clamp(defaults_.view.display.trailSeconds, 0.1, 1e5));
  forces_ = new QCheckBox(tr("Force arrows"));
  forces_->setChecked(defaults_.view.display.reactionArrows);
  velocities_ = new QCheckBox(tr("Velocity arrows"));
  velocities_->setChecked(defaults_.view.display.velocityArrows);
  overlay_ = new QCheckBox(tr("Time and parameters"));
  overlay_->setChecked(true);
  plots_ = new QCheckBox(tr("Plots beside the 3D view (path and time series)"));
  plots_->setObjectName("exportPlots");
  auto* showRow = new QHBoxLayout;
  showRow->addWidget(trails_);
  showRow->addWidget(trailSeconds_);
  showRow->addWidget(forces_);
  showRow->addWidget(velocities_);
  showRow->addStretch(1);
  form->addRow(tr("Show:"), showRow);
  form->addRow(QString(), overlay_);
  form->addRow(QString(), plots_);

  summary_ = new QLabel;
  summary_->setObjectName("exportSummary");
  form->addRow(QString(), summary_);
}

QHBoxLayout* ExportDialog::buildButtons() {
  exportButton_ = new QPushButton(tr("Export"));
  exportButton_->setDefault(true);
  cancelButton_ = new QPushButton(tr("Cancel export"));
  cancelButton_->setEnabled(false);
  closeButton_ = new QPushButton(tr("Close"));
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(exportButton_);
  buttons->addWidget(cancelButton_);
  buttons->addWidget(closeButton_);
  return buttons;
}

void ExportDialog::connectControls(QPushButton* browse) {
  connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
  connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChosen);
  connect(path_, &QLineEdit::editingFinished, this, &ExportDialog::pathEdited);
  connect(resolution_, &QComboBox::currentIndexChanged, this, [this](int i) {
    const Preset& p = kPresets[i];
    const bool custom = p.width == 0;
    width_->setEnabled(custom);
    height_->setEnabled(custom);
    if (!custom) {
      width_->setValue(p.width);
      height_->setValue(p.height);
    }
    updateSummary();
  });
  for (QSpinBox* b : {width_, height_})
    connect(b, &QSpinBox::valueChanged, this, &ExportDialog::updateSummary);
  for (QDoubleSpinBox* b : {fps_, tStart_, tEnd_, speed_})
    connect(b, &QDoubleSpinBox::valueChanged, this, &ExportDialog::updateSummary);
  connect(trails_, &QCheckBox::toggled, trailSeconds_, &QWidget::setEnabled);
  connect(exportButton_, &QPushButton::clicked, this, &ExportDialog::startExport);
  connect(cancelButton_, &QPushButton::clicked, this, &ExportDialog::cancelExport);
  connect(closeButton_, &QPushButton::clicked, this, &QDialog::close);
}

// The format and folder of the last export, then that format's own settings.
void ExportDialog::restoreLastFormat() {
  QSettings settings;
  const QString last = settings.value("export/format").toString();
  for (int i = 0; i < static_cast<int>(std::size(kFormats)); ++i)
    if (last == (*kFormats[i].suffix ? kFormats[i].suffix : "png")) format_->setCurrentIndex(i);
  const QString folder = settings.value("export/folder").toString();
  if (!folder.isEmpty() && QFileInfo(folder).isDir())
    path_->setText(QDir(folder).filePath(QFileInfo(outputPath()).fileName()));
  restoreFormatSettings();
}

QString ExportDialog::settingsGroup() const {
  const char* suffix = kFormats[format_->currentIndex()].suffix;
  return QStringLiteral("export/") + (*suffix ? suffix : "png");
}

// The size, frame rate, speed and extras last used with this format (a GIF at 15 fps and
// 640 px, an MP4 at 60 fps in Full HD, say); values the fields refuse are left as they are.
void ExportDialog::restoreFormatSettings() {
  if (!defaults_.rememberSettings) return;
  QSettings settings;
  settings.beginGroup(settingsGroup());
  if (!settings.contains("fps")) return;
  const int preset = settings.value("resolution", resolution_->currentIndex()).toInt();
  if (preset >= 0 && preset < resolution_->count()) resolution_->setCurrentIndex(preset);
  if (width_->isEnabled()) {
    width_->setValue(settings.value("width", width_->value()).toInt());
    height_->setValue(settings.value("height", height_->value()).toInt());
  }
  fps_->setValue(settings.value("fps", fps_->value()).toDouble());
  speed_->setValue(settings.value("speed", speed_->value()).toDouble());
  overlay_->setChecked(settings.value("overlay", overlay_->isChecked()).toBool());
  plots_->setChecked(settings.value("plots", plots_->isChecked()).toBool());
}

// The folder of the path entered, once it is one that exists (typed, browsed to or exported
// to): the next dialog starts there, whether or not this one exports.
void ExportDialog::rememberFolder() const {
  if (!defaults_.rememberSettings || outputPath().isEmpty()) return;
  const QFileInfo file(outputPath());
  if (file.absoluteDir().exists()) QSettings().setValue("export/folder", file.absolutePath());
}

void ExportDialog::saveFormatSettings() const {
  if (!defaults_.rememberSettings) return;
  QSettings settings;
  settings.setValue("export/format", settingsGroup().mid(7));
  settings.setValue("export/folder", QFileInfo(outputPath()).absolutePath());
  settings.beginGroup(settingsGroup());
  settings.setValue("resolution", resolution_->currentIndex());
  settings.setValue("width", width_->value());
  settings.setValue("height", height_->value());
  settings.setValue("fps", fps_->value());
  settings.setValue("speed", speed_->value());
  settings.setValue("overlay", overlay_->isChecked());
  settings.setValue("plots", plots_->isChecked());
}

ExportSettings ExportDialog::settings() const {
  ExportSettings s;
  s.width = width_->value();
  s.height = height_->value();
  s.fps = fps_->value();
  s.tStart = tStart_->value();
  s.tEnd = tEnd_->value();
  s.speed = speed_->value();
  const ViewState& v = defaults_.view;
  s.display = v.display;  // the angular velocity arrows and the arrow scale as the view has them
  s.display.trails = trails_->isChecked();
  s.display.trailSeconds = trailSeconds_->value();
  s.display.reactionArrows = forces_->isChecked();
  s.display.velocityArrows = velocities_->isChecked();
  s.overlay = overlay_->isChecked();
  s.plots = plots_->isChecked();
  s.pathX = v.phaseX.toStdString();
  s.pathY = v.phaseY.toStdString();
  s.timeSeries.clear();
  for (const QString& name : v.timeSeries) s.timeSeries.push_back(name.toStdString());
  s.camera = defaults_.camera;
  s.framing = v.follow               ? ExportSettings::Framing::Follow
              : v.display.keepInView ? ExportSettings::Framing::KeepInView
                                     : ExportSettings::Framing::Fixed;
  s.comparison = v.comparison;
  return s;
}

QString ExportDialog::outputPath() const { return path_->text().trimmed(); }

void ExportDialog::setOutputPath(const QString& path) {
  path_->setText(path);
  pathEdited();
}

bool ExportDialog::isRunning() const { return watcher_.isRunning(); }

void ExportDialog::updateSummary() {
  const ExportSettings s = settings();
  try {
    s.validate();
    // A planned motion's last frame shows the end time itself (animation_exporter.h).
    const int frames = s.frameCount() + (defaults_.played ? 1 : 0);
    summary_->setText(tr("%1 frames, %2 s of video; each frame advances %3 s of simulated time")
                          .arg(frames)
                          .arg(frames / s.fps, 0, 'g', 4)
                          .arg(s.frameStep(), 0, 'g', 3));
  } catch (const std::exception& e) {
    summary_->setText(QString::fromUtf8(e.what()));
  }
}

void ExportDialog::formatChosen() {
  const FormatChoice& f = kFormats[format_->currentIndex()];
  QFileInfo info(outputPath());
  QString base = info.suffix().isEmpty() ? info.fileName() : info.completeBaseName();
  if (base.isEmpty()) base = defaults_.baseName;
  const QString name = *f.suffix ? base + "." + f.suffix : base + "_frames";
  path_->setText(QDir(info.absolutePath()).filePath(name));
  if (std::string(f.suffix) == "gif" && fps_->value() > 50) fps_->setValue(15);
  restoreFormatSettings();
}

void ExportDialog::pathEdited() {
  rememberFolder();
  const QString suffix = QFileInfo(outputPath()).suffix().toLower();
  for (int i = 0; i < static_cast<int>(std::size(kFormats)); ++i) {
    if (suffix == kFormats[i].suffix || (suffix.isEmpty() && !*kFormats[i].suffix)) {
      QSignalBlocker block(format_);
      format_->setCurrentIndex(i);
    }
  }
}

void ExportDialog::browse() {
  const FormatChoice& f = kFormats[format_->currentIndex()];
  QString path;
  if (*f.suffix) {
    path = QFileDialog::getSaveFileName(
        this, tr("Export animation to"), outputPath(),
        tr("MP4 video (*.mp4);;WebM video (*.webm);;Animated GIF (*.gif)"));
  } else {
    path = QFileDialog::getSaveFileName(
        this, tr("Folder for the PNG frames (created, must not exist)"), outputPath());
  }
  if (!path.isEmpty()) setOutputPath(path);
}

void ExportDialog::setRunning(bool running) {
  exportButton_->setEnabled(!running);
  cancelButton_->setEnabled(running);
  progress_->setVisible(running);
  for (QWidget* w : std::initializer_list<QWidget*>{path_, format_, resolution_, fps_, tStart_,
                                                    tEnd_, speed_, trails_, trailSeconds_, forces_,
                                                    velocities_, overlay_, plots_})
    w->setEnabled(!running);
  if (!running) {
    const bool custom = kPresets[resolution_->currentIndex()].width == 0;
    width_->setEnabled(custom);
    height_->setEnabled(custom);
    trailSeconds_->setEnabled(trails_->isChecked());
  } else {
    width_->setEnabled(false);
    height_->setEnabled(false);
  }
}

void ExportDialog::startExport() {
  if (watcher_.isRunning()) return;
  const ExportSettings s = settings();
  QString path = outputPath();
  if (kFormats[format_->currentIndex()].suffix[0] == '\0' && !path.endsWith('/')) path += '/';
  try {
    s.validate();
    if (!sidecarMayBeWritten(path)) return;
    // VTK's offscreen window renders through X/GLX; Xvfb if the app runs without X (Wayland).
    if (!display_) display_ = nh::ensureDisplay();
  } catch (const std::exception& e) {
    status_->setText(tr("Not exported: %1").arg(e.what()));
    emit exportFinished(false, false, status_->text());
    return;
  }
  saveFormatSettings();
  cancel_ = false;
  setRunning(true);
  progress_->setRange(0, 0);
  status_->setText(tr("Simulating…"));
  const nh::Scenario scenario = scenario_;
  const std::string target = path.toStdString();
  const std::shared_ptr<const PlannedMotion> played = defaults_.played;
  watcher_.setFuture(QtConcurrent::run([this, scenario, s, target, played]() -> Outcome {
    Outcome outcome;
    try {
      AnimationExporter exporter(scenario, s, played);
      outcome.result = exporter.run(
          target,
          [this](const ExportProgress& p) {
            // Queued to the GUI thread; the dialog outlives the worker (destructor waits).
            QMetaObject::invokeMethod(
                this, [this, p] { onProgress(p); }, Qt::QueuedConnection);
          },
          &cancel_);
    } catch (const std::exception& e) {
      outcome.error = QString::fromUtf8(e.what());
    }
    return outcome;
  }));
}

bool ExportDialog::sidecarMayBeWritten(const QString& output) {
  const std::filesystem::path target = output.toStdString();
  const QString sidecar =
      QDir::toNativeSeparators(QString::fromStdString(scenarioPathFor(target).string()));
  const auto refuse = [&](const QString& reason) {
    status_->setText(tr("Not exported: %1").arg(reason));
    emit exportFinished(false, false, status_->text());
    return false;
  };
  try {
    // With force, only the input scenario is refused: never replaced, whatever the answer.
    checkScenarioSidecar(target, defaults_.inputScenario.toStdString(), true);
  } catch (const nh::InputError&) {
    return refuse(tr("the scenario written beside the export, %1, would replace the open "
                     "scenario file; choose another file name.")
                      .arg(sidecar));
  }
  try {
    checkScenarioSidecar(target, {}, false);
    return true;
  } catch (const nh::InputError&) {
    // An existing file that no earlier export to this output wrote: the user decides.
  }
  const auto answer = QMessageBox::question(
      this, tr("Replace file?"),
      tr("The export writes its scenario to %1, which exists and was not written by an "
         "earlier export to %2.\n\nReplace it?")
          .arg(sidecar, QString::fromStdString(exportedNameOf(target))),
      QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
  if (answer == QMessageBox::Yes) return true;
  return refuse(tr("%1 was kept; choose another file name.").arg(sidecar));
}

void ExportDialog::cancelExport() {
  if (!watcher_.isRunning()) return;
  cancel_ = true;
  status_->setText(tr("Cancelling…"));
}

void ExportDialog::onProgress(const ExportProgress& p) {
  if (!watcher_.isRunning() || cancel_) return;
  switch (p.stage) {
    case ExportProgress::Stage::Simulating:
      progress_->setRange(0, 0);
      status_->setText(tr("Simulating…"));
      break;
    case ExportProgress::Stage::Rendering:
      progress_->setRange(0, p.frameCount);
      progress_->setValue(p.frame);
      status_->setText(tr("Frame %1 of %2 — %3 elapsed, about %4 left")
                           .arg(p.frame)
                           .arg(p.frameCount)
                           .arg(humanSeconds(p.elapsedSeconds), humanSeconds(p.remainingSeconds)));
      break;
    case ExportProgress::Stage::Finishing:
      progress_->setRange(0, 0);
      status_->setText(tr("Finishing the file…"));
      break;
  }
}

void ExportDialog::onFinished() {
  const Outcome outcome = watcher_.result();
  setRunning(false);
  bool ok = false, cancelled = false;
  if (!outcome.error.isEmpty()) {
    status_->setText(tr("Export failed: %1\nNothing was written.").arg(outcome.error));
  } else if (outcome.result.cancelled) {
    cancelled = true;
    status_->setText(tr("Export cancelled; nothing was written."));
  } else {
    ok = true;
    const ExportResult& r = outcome.result;
    QString text = tr("Saved %1 (%2, %3 frames) in %4.")
                       .arg(QDir::toNativeSeparators(QString::fromStdString(r.output.string())),
                            humanSize(r.bytes))
                       .arg(r.frames)
                       .arg(humanSeconds(r.seconds));
    if (!r.scenarioFile.empty())
      text += "\n" +
              tr("Scenario for reproducing it: %1")
                  .arg(QDir::toNativeSeparators(QString::fromStdString(r.scenarioFile.string())));
    status_->setText(text);
  }
  emit exportFinished(ok, cancelled, status_->text());
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
