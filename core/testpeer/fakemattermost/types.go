package fakemattermost

// The fake's wire types: the fields of server/public/model's types that a
// server always sends, spelt as the model spells them (the conformance
// module round-trips every body and frame through the official types).

// User is model.User, as the API shows another user.
type User struct {
	ID          string `json:"id"`
	CreateAt    int64  `json:"create_at"`
	UpdateAt    int64  `json:"update_at"`
	DeleteAt    int64  `json:"delete_at"`
	Username    string `json:"username"`
	AuthService string `json:"auth_service"`
	Email       string `json:"email"`
	Nickname    string `json:"nickname"`
	FirstName   string `json:"first_name"`
	LastName    string `json:"last_name"`
	Position    string `json:"position"`
	Roles       string `json:"roles"`
	Locale      string `json:"locale"`
	IsBot       bool   `json:"is_bot,omitempty"`
}

// Channel is model.Channel.
type Channel struct {
	ID            string         `json:"id"`
	CreateAt      int64          `json:"create_at"`
	UpdateAt      int64          `json:"update_at"`
	DeleteAt      int64          `json:"delete_at"`
	TeamID        string         `json:"team_id"`
	Type          string         `json:"type"`
	DisplayName   string         `json:"display_name"`
	Name          string         `json:"name"`
	Header        string         `json:"header"`
	Purpose       string         `json:"purpose"`
	LastPostAt    int64          `json:"last_post_at"`
	TotalMsgCount int64          `json:"total_msg_count"`
	ExtraUpdateAt int64          `json:"extra_update_at"`
	CreatorID     string         `json:"creator_id"`
	Props         map[string]any `json:"props"`
}

// Post is model.Post.
type Post struct {
	ID            string         `json:"id"`
	CreateAt      int64          `json:"create_at"`
	UpdateAt      int64          `json:"update_at"`
	EditAt        int64          `json:"edit_at"`
	DeleteAt      int64          `json:"delete_at"`
	IsPinned      bool           `json:"is_pinned"`
	UserID        string         `json:"user_id"`
	ChannelID     string         `json:"channel_id"`
	RootID        string         `json:"root_id"`
	OriginalID    string         `json:"original_id"`
	Message       string         `json:"message"`
	Type          string         `json:"type"`
	Props         map[string]any `json:"props"`
	Hashtags      string         `json:"hashtags"`
	FileIDs       []string       `json:"file_ids"`
	PendingPostID string         `json:"pending_post_id"`
	ReplyCount    int64          `json:"reply_count"`
	LastReplyAt   int64          `json:"last_reply_at"`
	Participants  []User         `json:"participants"`
	Metadata      map[string]any `json:"metadata,omitempty"`
}

// AppError is model.AppError as an error body.
type AppError struct {
	ID            string `json:"id"`
	Message       string `json:"message"`
	DetailedError string `json:"detailed_error"`
	RequestID     string `json:"request_id,omitempty"`
	StatusCode    int    `json:"status_code,omitempty"`
}

// ChannelMember is model.ChannelMember.
type ChannelMember struct {
	ChannelID          string            `json:"channel_id"`
	UserID             string            `json:"user_id"`
	Roles              string            `json:"roles"`
	LastViewedAt       int64             `json:"last_viewed_at"`
	MsgCount           int64             `json:"msg_count"`
	MentionCount       int64             `json:"mention_count"`
	MentionCountRoot   int64             `json:"mention_count_root"`
	UrgentMentionCount int64             `json:"urgent_mention_count"`
	MsgCountRoot       int64             `json:"msg_count_root"`
	NotifyProps        map[string]string `json:"notify_props"`
	LastUpdateAt       int64             `json:"last_update_at"`
	SchemeGuest        bool              `json:"scheme_guest"`
	SchemeUser         bool              `json:"scheme_user"`
	SchemeAdmin        bool              `json:"scheme_admin"`
	ExplicitRoles      string            `json:"explicit_roles"`
}

// TeamMember is model.TeamMember.
type TeamMember struct {
	TeamID        string `json:"team_id"`
	UserID        string `json:"user_id"`
	Roles         string `json:"roles"`
	DeleteAt      int64  `json:"delete_at"`
	SchemeGuest   bool   `json:"scheme_guest"`
	SchemeUser    bool   `json:"scheme_user"`
	SchemeAdmin   bool   `json:"scheme_admin"`
	ExplicitRoles string `json:"explicit_roles"`
}
