import type { Catalogue } from "../catalogue";
import type { tasks as english } from "../en/tasks";

/** 任务视图。 */
export const tasks: Catalogue<typeof english> = {
  "tasks.view.label": "任务",
  "tasks.view.empty": "还没有以任务方式运行的工具调用。由服务器以任务方式运行的工具，会在运行期间及结束后显示在这里。",
  "tasks.column.tool": "工具",
  "tasks.column.askedBy": "发起者",
  "tasks.column.status": "状态",
  "tasks.column.started": "开始时间",
  "tasks.column.time": "用时",
  "tasks.column.keptFor": "保留时长",
  "tasks.column.actions": "操作",
  "tasks.task.ofServer": "（{server}）",
  "tasks.status.working": "进行中",
  "tasks.status.inputRequired": "等待你的回答",
  "tasks.status.completed": "已完成",
  "tasks.status.failed": "失败",
  "tasks.status.cancelled": "已取消",
  "tasks.task.untilItEnds": "直到结束",
  "tasks.task.cancel": "取消",
  "tasks.task.cancelLabel": "取消 {server} 的 {tool}",
  "tasks.task.openResult": "查看结果",
  "tasks.task.hideResult": "隐藏结果",
  "tasks.result.label": "{server} 的 {tool} 的结果",
  "tasks.result.heading": "结果：",
};
