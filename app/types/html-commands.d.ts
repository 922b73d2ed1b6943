import "react";

// HTML attributes newer than React's type definitions: invoker commands (a button opens or closes a
// <dialog> without JavaScript) and light dismiss for dialogs. React passes them through as written.
declare module "react" {
  // Merged declarations must repeat React's type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: "show-modal" | "close" | "request-close";
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface DialogHTMLAttributes<T> {
    closedby?: "any" | "closerequest" | "none";
  }
}
