/**
 * The message catalogue: every text of the spec's error catalogues (console.md and
 * integrations-and-billing.md, section 8), to the letter. Server and web both import it.
 */
export const MESSAGES = {
  /** A page the person's role does not include (issue 31: short and friendly, never a 401). */
  unauthorized: {
    title: "You don't have access to this page",
    body: 'Your role in this workspace does not include it; ask an owner if you need it.',
    back: 'Back to Home',
  },
  auth: {
    loggingOut: 'Logging out...',
    invalidCredentials: 'Incorrect email/username or password',
    notAuthenticated: 'Not authenticated',
    sessionExpired: 'Your session has expired. Please log in again.',
    emailTaken: 'An account with this email already exists',
    usernameTaken: 'This username is already taken',
    invitationInvalid: 'This invitation is invalid or has expired',
    invitationEmailMismatch: 'This invitation was sent to another email address',
    forbidden: 'You do not have permission to do this',
    googleNotConfigured: 'Google sign-in is not configured on this server',
    googleTokenInvalid: 'Google sign-in failed: the token could not be verified',
    lastOwner: 'The last owner of a workspace cannot be removed',
    currentPasswordWrong: 'Current password is incorrect',
    ownPasswordOnly: 'You can only change your own password',
    ownerOnlyByOwner: 'Only an owner can edit or remove an owner',
  },
  otp: {
    sent: 'If an account exists for this email, a code has been sent to it.',
    codeSent: 'A verification code has been sent to your email.',
    invalid: 'The code is invalid or has expired',
    tooManyAttempts: 'Too many wrong codes. Request a new code.',
    verified: 'Code verified',
    passwordReset:
      'Your password has been reset and every device signed in to your account was signed out. You can now log in.',
  },
  roles: {
    fetchFailed: 'Failed to fetch roles',
    createFailed: 'Failed to create role',
    assignPermissionsFailed: 'Failed to assign permissions',
    assignRoleFailed: 'Failed to assign user role',
    created: 'Role created successfully',
    permissionsUpdated: 'Permissions updated successfully',
    roleAssigned: 'User role assigned successfully',
    roleNameTaken: 'A role with this name already exists',
    ownerLocked: 'The Owner role always holds every permission and cannot be edited',
    grantBeyondOwn: "You can't grant permissions you don't hold yourself",
    ownerOnlyByOwner: 'Only an owner can give or take the Owner role',
    updated: 'Role updated successfully',
    deleted: 'Role deleted successfully',
    ownerNotDeletable: 'The Owner role cannot be deleted',
    /** A role someone holds, or a pending invitation offers, stays until that changes. */
    inUse: (holders: number, invitations: number) => {
      const who = holders === 1 ? '1 teammate has it' : `${holders} teammates have it`;
      const offers =
        invitations === 1 ? '1 pending invitation offers it' : `${invitations} pending invitations offer it`;
      const reasons = [holders > 0 ? who : '', invitations > 0 ? offers : ''].filter(Boolean).join(' and ');
      const steps = [
        holders > 0 ? `give ${holders === 1 ? 'them' : 'each'} another role` : '',
        invitations > 0 ? `revoke ${invitations === 1 ? 'the invitation' : 'those invitations'}` : '',
      ].filter(Boolean);
      return `Can't delete this role: ${reasons}. First ${steps.join(' and ')}.`;
    },
  },
  features: {
    deleteAssigned: "Can't delete this feature as it's assigned to different roles. Please archive instead",
    nameTaken: 'A feature with this name already exists',
    platformFeature: 'Platform features cannot be changed',
  },
  users: {
    inviteSent: 'Invitation sent successfully',
    inviteResent: 'Invitation sent again',
    /** Shown instead of inviteSent / inviteResent when the server has no SMTP: nothing was mailed. */
    inviteNotMailed: 'Mail is not set up on this server: copy the link and send it yourself',
    inviteLinkCopied: 'Invitation link copied',
    inviteRevoked: 'Invitation revoked',
    invitationNotFound: 'Invitation not found',
    inviteFailed: 'Failed to invite user.',
    /** An invitation to someone who already has an account: here, or in another workspace. */
    alreadyMember: 'This person is already a member of this workspace.',
    inOtherWorkspace:
      'This email already has an account in another workspace, and an account belongs to one workspace: invite another address of theirs.',
    unexpected: 'An unexpected error occurred.',
    profileUpdated: 'Profile updated successfully',
    passwordChanged: 'Password changed successfully',
    /** Shown beside passwordChanged: the change ended every other session of the account. */
    otherDevicesSignedOut: 'Your other devices were signed out and need the new password to sign in again.',
    deleted: 'User deleted successfully',
    /** Said after `deleted` when the removed person had sent invitations nobody had accepted. */
    invitationsWithdrawn: (n: number) =>
      n === 1
        ? 'The invitation they sent that nobody had accepted was withdrawn: invite that person again if you still want them.'
        : `The ${n} invitations they sent that nobody had accepted were withdrawn: invite those people again if you still want them.`,
  },
  bots: {
    addFailed: 'Failed to add bot',
    createFailed: 'Failed to create bot',
    added: 'Bot added successfully',
    updated: 'Bot updated successfully',
    deleted: 'Bot Deleted successfully',
    deleteBlocked: 'Failed to delete the bot as bot has active users/chats',
    nameRequired: 'Bot name is required',
    nameChars: 'Only alphanumeric characters and underscores are allowed',
  },
  qna: {
    fetchFailed: 'Failed to fetch Q&As',
    createFailed: 'Failed to create Q&A',
    updateFailed: 'Failed to update Q&A',
    deleteFailed: 'Failed to delete Q&A',
    deleteAllFailed: 'Failed to delete all Q&As',
    trainStartFailed: 'Failed to start training',
    progressFailed: 'Failed to get training progress',
    trainingFailed: 'Training failed',
    questionRequired: 'Question is required',
    answerRequired: 'Answer is required',
    botRequired: 'Bot ID is required',
    tooManyWordings: 'At most 20 other wordings',
    linkFailed: 'Failed to add the question to that answer',
    otherBot: "That Q&A pair is not one of this bot's",
  },
  calendar: {
    saveFailed: 'Failed to save calendar booking',
    loadFailed: 'Failed to load calendar booking',
    deleteFailed: 'Failed to delete calendar booking',
    saved: 'Calendar booking configuration saved successfully!',
    deleted: 'Calendar booking configuration deleted successfully!',
    messageRequired: 'Message is required',
    titleRequired: 'Title is required',
    urlInvalid: 'Valid URL is required',
  },
  llm: {
    saved: 'LLM saved successfully',
    updated: 'LLM updated successfully',
    activateFailed: 'Failed to activate LLM',
  },
  notification: { emailSent: 'Email notification sent!' },
  invoices: { fetchFailed: 'Failed to fetch invoice history' },
  realtime: {
    unableToEstablish:
      'Unable to establish connection to the server. Please refresh the page or try again later.',
    lost: 'Connection to server lost. Please refresh the page.',
    failedLater: 'Failed to establish connection. Please try again later.',
    sendFailed: 'Failed to send message. Please try again.',
    unableToConnect: 'Unable to connect to the server. Please try again later.',
    failedAgain: 'Failed to establish connection. Please try again.',
    issue: 'Connection issue detected. Please try again.',
    timeout: 'WebSocket connection timed out',
  },
  files: {
    uploadFailed: 'An error occurred during file upload.',
    deleteGroupFailed: 'An error occurred while deleting the file group',
    associatedBots: ' Associated bots: ',
    groupNameTaken: 'File group name already exists. Please choose a different name.',
    atLeastOneFile: 'At least one file is required',
    groupNameChars: 'Only alphanumeric characters and underscores are allowed',
    groupNameRequired: 'Group name is required',
    userMissing: "User doesn't exist",
  },
  crawler: {
    started: 'Crawling started successfully',
    completed: (n: number) => `Crawling completed! ${n} pages crawled.`,
    pageDeleted: 'Page deleted successfully',
    pagesDeleted: 'Pages deleted successfully',
    sourceDeleted: 'Web source deleted successfully',
    startFailed: 'Failed to start crawling',
    fetchPagesFailed: 'Failed to fetch user pages',
    deletePageFailed: 'Failed to delete page',
    deletePagesFailed: 'Failed to delete pages',
    deleteSourceFailed: 'Failed to delete web source',
  },
  notion: {
    trainingCompleted: 'Training completed for workspace',
    trainingFailed: (error?: string) => `Training failed: ${error || 'Unknown error'}`,
  },
  generic: {
    notFound: 'Not found',
    internal: 'Something went wrong on our side. Please try again.',
    tooManyRequests: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
    badRequest: 'The request is not valid',
  },
} as const;
