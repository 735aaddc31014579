import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, type SkillLoaded, type SkillSummary } from "../bindings";
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

describe("frontmatterOf", () => {
  it("sets a SKILL.md's frontmatter apart from its markdown, and leaves text without one whole", () => {
    expect(frontmatterOf("---\nname: tour\ndescription: A tour.\n---\n# A tour\n")).toEqual({
      frontmatter: "name: tour\ndescription: A tour.",
      body: "# A tour\n",
    });
    expect(frontmatterOf("# No frontmatter\n---\n")).toEqual({ frontmatter: null, body: "# No frontmatter\n---\n" });
  });
});
