import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type SkillLoaded, type SkillSummary } from "../bindings";
import { applyLanguage } from "../i18n";
import { ExplorerStoreProvider } from "./kept";
import { SkillPanel } from "./SkillPanel";
import { frontmatterOf } from "./SkillDetail";

vi.mock("../bindings", async () => (await import("../testing/bindings")).withCommands({ loadSkill: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const skill: SkillSummary = {
  uri: "skill://tour/SKILL.md",
  name: "tour",
  description: "Shows a visitor around the project",
  files: [
    { uri: "skill://tour/SKILL.md", size: 512 },
    { uri: "skill://tour/map.txt", size: 2048 },
  ],
  allowedForModels: false,
};

const loaded: SkillLoaded = {
  uri: skill.uri,
  name: "tour",
  instructions: "---\nname: tour\ndescription: Shows a visitor around the project\n---\n\n# Tour\n\nStart at the **entrance**.",
  files: skill.files,
};

function renderPanel(shown: SkillSummary = skill) {
  return render(
    <ExplorerStoreProvider>
      <SkillPanel server="demo" skill={shown} />
    </ExplorerStoreProvider>,
  );
}

describe("SkillDetail", () => {
  it("shows the skill as its server lists it, and loads nothing until asked", () => {
    renderPanel();
    expect(screen.getByRole("heading", { name: "tour" })).toBeTruthy();
    expect(screen.getByText("demo")).toBeTruthy();
    expect(screen.getByText("Shows a visitor around the project")).toBeTruthy();
    const files = screen.getByRole("region", { name: "Files" });
    expect(within(files).getByText("skill://tour/map.txt")).toBeTruthy();
    expect(within(files).getByText("2.0 KB")).toBeTruthy();
    expect(within(files).getByText("512 bytes")).toBeTruthy();
    expect(screen.getByText("A model that wants it asks you first")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Load" })).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Instructions" })).toBeNull();
    expect(commands.loadSkill).not.toHaveBeenCalled();
  });

  it("says when models may use it", () => {
    renderPanel({ ...skill, allowedForModels: true });
    expect(screen.getByText("Models may use it as it is now")).toBeTruthy();
    expect(screen.queryByText("A model that wants it asks you first")).toBeNull();
  });

  it("shows the instructions once loaded, busy meanwhile", async () => {
    const user = userEvent.setup();
    let answer: (value: SkillLoaded) => void = () => {};
    vi.mocked(commands.loadSkill).mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    renderPanel();
    const load = screen.getByRole("button", { name: "Load" }) as HTMLButtonElement;
    await user.click(load);
    expect(commands.loadSkill).toHaveBeenCalledExactlyOnceWith("demo", "skill://tour/SKILL.md");
    expect(load.disabled).toBe(true);
    expect(load.getAttribute("aria-busy")).toBe("true");
    answer(loaded);
    const instructions = await screen.findByRole("region", { name: "Instructions" });
    expect(within(instructions).getByRole("heading", { name: "Tour" })).toBeTruthy();
    expect(within(instructions).getByText("entrance")).toBeTruthy();
    expect(instructions.getAttribute("tabindex")).toBe("0");
    await waitFor(() => expect(load.disabled).toBe(false));
    expect(load.getAttribute("aria-busy")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows why a skill was refused", async () => {
    const user = userEvent.setup();
    vi.mocked(commands.loadSkill).mockRejectedValue({ code: "server", message: "skill://tour/map.txt does not match its digest in the manifest" });
    renderPanel();
    await user.click(screen.getByRole("button", { name: "Load" }));
    expect((await screen.findByRole("alert")).textContent).toBe("skill://tour/map.txt does not match its digest in the manifest");
    expect(screen.getByText("Switchboard refuses a skill whose files differ from what its server listed.")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Instructions" })).toBeNull();
    expect((screen.getByRole("button", { name: "Load" }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe("SkillDetail in Chinese", () => {
  afterEach(() => act(() => applyLanguage("en")));

  it("speaks Chinese around the skill, its files and its loading", async () => {
    const user = userEvent.setup();
    act(() => applyLanguage("zh-CN"));
    let answer: (value: SkillLoaded) => void = () => {};
    vi.mocked(commands.loadSkill).mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    renderPanel();
    expect(screen.getByText("的技能", { exact: false }).textContent).toBe("demo 的技能");
    expect(screen.getByText("模型要使用它时会先询问你")).toBeTruthy();
    const files = screen.getByRole("region", { name: "文件" });
    expect(within(files).getByText("skill://tour/map.txt")).toBeTruthy();
    expect(within(files).getByText("512 字节")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "加载" }));
    expect(screen.getByRole("status").textContent).toBe("正在加载并检查它的文件…");
    answer(loaded);
    const instructions = await screen.findByRole("region", { name: "说明" });
    expect(within(instructions).getByRole("heading", { name: "Tour" })).toBeTruthy();
  });

  it("says in Chinese why a skill may be refused, and that a server lists no file", async () => {
    const user = userEvent.setup();
    act(() => applyLanguage("zh-CN"));
    vi.mocked(commands.loadSkill).mockRejectedValue({ code: "server", message: "skill://tour/map.txt does not match its digest in the manifest" });
    renderPanel({ ...skill, files: [], allowedForModels: true });
    expect(screen.getByText("模型可以直接使用它的当前版本")).toBeTruthy();
    expect(screen.getByText("服务器未列出任何文件。")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "加载" }));
    expect((await screen.findByRole("alert")).textContent).toBe("skill://tour/map.txt does not match its digest in the manifest");
    expect(screen.getByText("技能的文件与其服务器所列不一致时，Switchboard 会拒绝该技能。")).toBeTruthy();
  });
});

describe("frontmatterOf", () => {
  it("sets a SKILL.md's frontmatter apart from its markdown, and leaves text without one whole", () => {
    expect(frontmatterOf("---\nname: tour\ndescription: A tour.\n---\n# A tour\n")).toEqual({
      frontmatter: "name: tour\ndescription: A tour.",
      body: "# A tour\n",
    });
    expect(frontmatterOf("# No frontmatter\n---\n")).toEqual({ frontmatter: null, body: "# No frontmatter\n---\n" });
  });
});
