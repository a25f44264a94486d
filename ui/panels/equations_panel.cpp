// The Equations dock (equations_panel.h): the derived equations laid out in MathView blocks with
// copy buttons, the plain-text view, the Hamiltonian toggle, and the derivation run off the
// GUI thread for the shown system.
#include "ui/panels/equations_panel.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "ui/panels/math_view.h"

namespace nhui {

namespace {

struct Lines {
  QStringList lines;
  bool aligned = false;  // an & outside every environment and group
};

// The lines of a block: split at newlines and \\ outside groups and environments, trimmed,
// without empty ones.
Lines splitLines(const std::string& latex) {
  const QString text = QString::fromStdString(latex);
  Lines out;
  QString line;
  int groups = 0, environments = 0;
  auto finish = [&] {
    line = line.trimmed();
    if (!line.isEmpty()) out.lines << line;
    line.clear();
  };
  for (qsizetype i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    const bool top = groups == 0 && environments == 0;
    if (c == u'\\' && i + 1 < text.size()) {
      const QStringView rest = QStringView(text).mid(i);
      if (rest.startsWith(u"\\begin{")) ++environments;
      if (rest.startsWith(u"\\end{")) environments = std::max(0, environments - 1);
      if (top && text[i + 1] == u'\\') {
        finish();
        ++i;
        continue;
      }
      line += c;
      line += text[++i];  // an escaped character (\{, \&) counts for nothing
      continue;
    }
    if (c == u'{') ++groups;
    if (c == u'}') groups = std::max(0, groups - 1);
    if (c == u'&' && top) out.aligned = true;
    if (c == u'\n' && top) {
      finish();
      continue;
    }
    line += c;
  }
  finish();
  return out;
}

// A tool button of the header, named `name` (tests find it by that).
QToolButton* headerButton(const char* name, const QString& text, const QString& toolTip,
                          bool checkable) {
  auto* button = new QToolButton;
  button->setObjectName(name);
  button->setText(text);
  button->setToolTip(toolTip);
  button->setCheckable(checkable);
  return button;
}

}  // namespace

EquationsPanel::EquationsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* header = new QHBoxLayout;
  title_ = new QLabel(tr("Derived equations"));
  QFont titleFont = title_->font();
  titleFont.setBold(true);
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  title_->setFont(titleFont);
  title_->setWordWrap(true);
  copyAll_ = headerButton("copyAllLatex", tr("Copy all as LaTeX"),
                          tr("Copies every block as LaTeX (amsmath) to the clipboard"), false);
  plainToggle_ = headerButton("plainText", tr("Plain text"),
                              tr("Shows the equations as plain text, to select and copy"), true);
  hamiltonianToggle_ = headerButton(
      "hamiltonianSide", tr("Hamiltonian side"),
      tr("Shows H = p·y − L and the nonholonomic bracket of (q, π) on the constraint with its "
         "Jacobiator, instead of the equations of motion"),
      true);
  header->addWidget(title_, 1);
  header->addWidget(hamiltonianToggle_);
  header->addWidget(copyAll_);
  header->addWidget(plainToggle_);
  layout->addLayout(header);

  messageLabel_ = new QLabel;
  messageLabel_->setObjectName("message");
  messageLabel_->setWordWrap(true);
  messageLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  messageLabel_->hide();
  layout->addWidget(messageLabel_);

  stack_ = new QStackedWidget;
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* page = new QWidget;
  auto* pageLayout = new QVBoxLayout(page);
  blocks_ = new QWidget;
  blocksLayout_ = new QVBoxLayout(blocks_);
  blocksLayout_->setContentsMargins(0, 0, 0, 0);
  notes_ = new QLabel;
  notes_->setObjectName("notes");
  notes_->setWordWrap(true);
  QFont notesFont = notes_->font();
  notesFont.setItalic(true);
  notes_->setFont(notesFont);
  pageLayout->addWidget(blocks_);
  pageLayout->addWidget(notes_);
  pageLayout->addStretch(1);
  scroll->setWidget(page);
  plain_ = new QPlainTextEdit;
  plain_->setObjectName("plainTextView");
  plain_->setReadOnly(true);
  plain_->setLineWrapMode(QPlainTextEdit::NoWrap);
  stack_->addWidget(scroll);
  stack_->addWidget(plain_);
  layout->addWidget(stack_, 1);

  connect(copyAll_, &QToolButton::clicked, this,
          [this] { QGuiApplication::clipboard()->setText(allLatex()); });
  connect(plainToggle_, &QToolButton::toggled, this, &EquationsPanel::setPlain);
  connect(hamiltonianToggle_, &QToolButton::toggled, this, [this] {
    stale_ = true;
    derive();
  });
  rebuild();
}

void EquationsPanel::setHamiltonian(bool on) { hamiltonianToggle_->setChecked(on); }

bool EquationsPanel::hamiltonian() const { return hamiltonianToggle_->isChecked(); }

void EquationsPanel::setTitle(const QString& title) { title_->setText(title); }

void EquationsPanel::setEquations(const nh::model::DerivedEquations& equations) {
  equations_ = equations;
  message_.clear();
  rebuild();
}

void EquationsPanel::setMessage(const QString& message) {
  equations_ = {};
  message_ = message;
  rebuild();
}

QString EquationsPanel::displayLatex(const std::string& latex) {
  return splitLines(latex).lines.join(u" \\\\ ");
}

QString EquationsPanel::allLatex() const {
  QStringList parts;
  for (const auto& block : equations_.blocks) {
    const Lines lines = splitLines(block.latex);
    if (lines.lines.isEmpty()) continue;
    const QString environment = lines.aligned ? "align*" : "gather*";
    parts << QString("% %1\n\\begin{%2}\n%3\n\\end{%2}\n")
                 .arg(QString::fromStdString(block.title), environment,
                      lines.lines.join(" \\\\\n"));
  }
  for (const auto& note : equations_.notes)
    parts << QString("% Note: %1\n").arg(QString::fromStdString(note));
  return parts.join("\n");
}

QString EquationsPanel::plainText() const {
  QStringList parts;
  for (const auto& block : equations_.blocks)
    parts << QString::fromStdString(block.title) + "\n" +
                 QString::fromStdString(block.plain).trimmed() + "\n";
  if (!equations_.notes.empty()) {
    QString notes = tr("Notes:") + "\n";
    for (const auto& note : equations_.notes) notes += "• " + QString::fromStdString(note) + "\n";
    parts << notes;
  }
  return parts.join("\n");
}

void EquationsPanel::rebuild() {
  while (QLayoutItem* item = blocksLayout_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  views_.clear();
  for (size_t i = 0; i < equations_.blocks.size(); ++i) {
    const auto& block = equations_.blocks[i];
    auto* row = new QHBoxLayout;
    auto* title = new QLabel(QString::fromStdString(block.title));
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    title->setWordWrap(true);
    auto* copy = new QToolButton;
    copy->setObjectName(QString("copyLatex%1").arg(i));
    copy->setText(tr("Copy LaTeX"));
    copy->setToolTip(tr("Copies this block's LaTeX to the clipboard"));
    connect(copy, &QToolButton::clicked, this, [this, i] {
      if (i < equations_.blocks.size())
        QGuiApplication::clipboard()->setText(QString::fromStdString(equations_.blocks[i].latex));
    });
    row->addWidget(title, 1);
    row->addWidget(copy, 0, Qt::AlignTop);
    auto* heading = new QWidget;
    heading->setLayout(row);
    row->setContentsMargins(0, i == 0 ? 0 : 8, 0, 0);
    auto* view = new MathView(displayLatex(block.latex));
    view->setObjectName(QString("equation%1").arg(i));
    blocksLayout_->addWidget(heading);
    blocksLayout_->addWidget(view);
    views_.push_back(view);
  }
  QStringList notes;
  for (const auto& note : equations_.notes) notes << "• " + QString::fromStdString(note);
  notes_->setText(notes.join("\n"));
  notes_->setVisible(!notes.isEmpty());
  messageLabel_->setText(message_);
  messageLabel_->setVisible(!message_.isEmpty());
  copyAll_->setEnabled(!equations_.blocks.empty());
  plain_->setPlainText(plainText());
}

void EquationsPanel::setPlain(bool plain) { stack_->setCurrentIndex(plain ? 1 : 0); }

struct EquationsPanel::Derived {
  QString title;
  nh::model::DerivedEquations equations;
  QString error;
  bool cancelled = false;
};

EquationsPanel::~EquationsPanel() {
  if (cancel_) cancel_->store(true);
  if (job_) job_->waitForFinished();
}

void EquationsPanel::showSystem(std::shared_ptr<const nh::SystemModel> system,
                                std::vector<double> parameters) {
  system_ = std::move(system);
  parameters_ = std::move(parameters);
  hamiltonianToggle_->setEnabled(system_ && !system_->info().isControlModel());
  stale_ = true;
  derive();
}

void EquationsPanel::pauseDerivation() {
  if (deriving() && cancel_) {
    cancel_->store(true);
    stale_ = true;
  }
}

bool EquationsPanel::deriving() const { return job_ && job_->isRunning(); }

void EquationsPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  derive();
}

void EquationsPanel::derive() {
  if (!job_) {
    job_ = new QFutureWatcher<std::shared_ptr<const Derived>>(this);
    connect(job_, &QFutureWatcherBase::finished, this, &EquationsPanel::onDerived);
  }
  if (!isVisible() || !stale_ || !system_) return;
  if (job_->isRunning()) {
    cancel_->store(true);
    return;
  }
  stale_ = false;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  const bool hamiltonian = hamiltonianToggle_->isChecked() && !system_->info().isControlModel();
  job_->setFuture(QtConcurrent::run([system = system_, parameters = parameters_, cancel = cancel_,
                                     hamiltonian] {
    auto r = std::make_shared<Derived>();
    r->title = QString::fromStdString(system->info().title);
    try {
      r->equations = hamiltonian
                         ? nh::model::deriveHamiltonianEquations(*system, parameters, cancel.get())
                         : nh::model::deriveEquations(*system, parameters, cancel.get());
    } catch (const nh::model::DerivationCancelled&) {
      r->cancelled = true;
    } catch (const std::exception& e) {
      r->error = QString::fromUtf8(e.what());
    }
    return std::shared_ptr<const Derived>(std::move(r));
  }));
}

void EquationsPanel::onDerived() {
  const std::shared_ptr<const Derived> r = job_->result();
  if (!r->cancelled && !stale_) {
    setTitle(r->title);
    if (r->error.isEmpty())
      setEquations(r->equations);
    else
      setMessage(tr("The equations could not be derived: %1").arg(r->error));
  }
  derive();  // a request that came while it ran
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
